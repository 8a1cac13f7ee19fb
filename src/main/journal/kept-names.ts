import { Repository } from './repository';
import type { Db } from './schema';

/** A file's local identity: its volume and inode. */
type LocalId = { dev: number; ino: number };

/**
 * Service names of items kept as local work (`kept_names`, schema part 3): an item kept here
 * after the service deleted it goes up again under its service name when its local name was
 * only a mapping of it; by identity and local name, so renamed since, it goes up as renamed.
 */
export class KeptNamesRepo extends Repository {
  constructor(db: Db) {
    super(db, {
      put: `INSERT OR REPLACE INTO kept_names (dev, ino, local_name, remote_name)
        VALUES (?, ?, ?, ?)`,
      get: `SELECT remote_name FROM kept_names WHERE dev = ? AND ino = ? AND local_name = ?`,
      del: `DELETE FROM kept_names WHERE dev = ? AND ino = ?`,
    });
  }

  keep(id: LocalId, localName: string, remoteName: string): void {
    this.s.put!.run(id.dev, id.ino, localName, remoteName);
  }

  get(id: LocalId, localName: string): string | undefined {
    const r = this.s.get!.get(id.dev, id.ino, localName) as { remote_name: string } | undefined;
    return r?.remote_name;
  }

  forget(id: LocalId): void {
    this.s.del!.run(id.dev, id.ino);
  }
}
