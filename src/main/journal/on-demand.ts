import { fromItemRow, type ItemRow, type JournalItem } from './items';
import { Repository } from './repository';
import type { Db } from './schema';
import type { MetaRepo } from './meta';

/** Whether a pair's new files arrive in full (the default) or as placeholders. */
export type OnDemandMode = 'full' | 'online';

const MODE_KEY = 'on_demand';
/** Files not opened for this many days are freed when the disk is nearly full; none: never. */
const FREE_DAYS_KEY = 'free_unused_days';

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
      byFacts: `SELECT * FROM items WHERE state = 'online' AND size = ? AND mtime_ms = ?`,
      fetchedAt: `SELECT at FROM fetched WHERE remote_id = ?`,
      fetched: `INSERT OR REPLACE INTO fetched (remote_id, at) VALUES (?, ?)`,
    });
  }

  mode(): OnDemandMode {
    return this.meta.get(MODE_KEY) === 'online' ? 'online' : 'full';
  }

  setMode(mode: OnDemandMode): void {
    // 'full' is the default: no key, as for every pair made before the setting existed.
    this.meta.set(MODE_KEY, mode === 'online' ? 'online' : null);
  }

  /** Days unopened after which a file is freed when the disk is nearly full; null: never. */
  freeUnusedDays(): number | null {
    const raw = this.meta.get(FREE_DAYS_KEY);
    const days = raw === undefined ? NaN : Number(raw);
    return Number.isSafeInteger(days) && days > 0 ? days : null;
  }

  setFreeUnusedDays(days: number | null): void {
    // Off is the default: no key.
    this.meta.set(FREE_DAYS_KEY, days === null ? null : String(days));
  }

  /** When the file was last downloaded (ms), if recorded (only while freeUnusedDays is set). */
  fetchedAt(remoteId: number): number | undefined {
    return this.s.fetchedAt!.pluck().get(remoteId) as number | undefined;
  }

  recordFetched(remoteId: number, at: number): void {
    this.s.fetched!.run(remoteId, Math.round(at));
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

  /** Items online only whose placeholder had this size and time (a copy or move of it). */
  withPlaceholderFacts(size: number, mtimeMs: number): JournalItem[] {
    return (this.s.byFacts!.all(size, mtimeMs) as ItemRow[]).map(fromItemRow);
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
