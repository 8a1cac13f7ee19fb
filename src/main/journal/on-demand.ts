import { Repository } from './repository';
import type { Db } from './schema';
import type { MetaRepo } from './meta';

/** Whether a pair's new files arrive in full (the default) or as placeholders. */
export type OnDemandMode = 'full' | 'online';

const MODE_KEY = 'on_demand';

/**
 * Files on demand (docs/SYNC.md): the pair's setting (in `meta`, beside its other settings),
 * the pins (local paths whose files always arrive in full, schema part 10), and whether any item
 * is kept online only (an indexed look, so a pair that never used it pays nothing).
 */
export class OnDemandRepo extends Repository {
  constructor(
    db: Db,
    private readonly meta: MetaRepo,
  ) {
    super(db, {
      anyOnline: `SELECT 1 FROM items WHERE state = 'online' LIMIT 1`,
      pins: `SELECT path FROM pins ORDER BY path`,
      pin: `INSERT INTO pins (path) VALUES (?) ON CONFLICT (path) DO NOTHING`,
      unpin: `DELETE FROM pins WHERE path = ?`,
    });
  }

  mode(): OnDemandMode {
    return this.meta.get(MODE_KEY) === 'online' ? 'online' : 'full';
  }

  setMode(mode: OnDemandMode): void {
    // 'full' is the default: no key, as for every pair made before the setting existed.
    this.meta.set(MODE_KEY, mode === 'online' ? 'online' : null);
  }

  pins(): string[] {
    return this.s.pins!.pluck().all() as string[];
  }

  pin(path: string): void {
    this.s.pin!.run(path);
  }

  unpin(path: string): void {
    this.s.unpin!.run(path);
  }

  /** Whether placeholders may be met at all: the setting is online, or some item is. */
  active(): boolean {
    return this.mode() === 'online' || this.s.anyOnline!.get() !== undefined;
  }
}

/** Whether a new file at `path` arrives as a placeholder: the setting, unless a pin covers it. */
export function arrivesOnline(mode: OnDemandMode, pins: readonly string[], path: string): boolean {
  if (mode !== 'online') return false;
  return !pins.some((p) => p === '' || path === p || path.startsWith(p + '/'));
}
