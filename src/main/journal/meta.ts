import { Repository } from './repository';
import type { Db } from './schema';

/** The pair's settings (`meta`): a handful of keys, each a string. */
export class MetaRepo extends Repository {
  constructor(db: Db) {
    super(db, {
      get: `SELECT value FROM meta WHERE key = ?`,
      set: `INSERT INTO meta (key, value) VALUES (?, ?)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      del: `DELETE FROM meta WHERE key = ?`,
    });
  }

  get(key: string): string | undefined {
    return this.s.get!.pluck().get(key) as string | undefined;
  }

  set(key: string, value: string | number | null): void {
    if (value === null) this.s.del!.run(key);
    else this.s.set!.run(key, String(value));
  }
}
