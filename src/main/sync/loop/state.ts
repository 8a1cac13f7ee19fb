import type { RemoteItem } from '../remote';
import { Refusals } from '../up/refusals';

/**
 * What the passes share besides the journal, in one place: each field is written by one pass and
 * read by the other as data (no stage calls back into another).
 */
export class PassState {
  /** Local changes the service refused (up): not sent again until they change; cleared at walks. */
  readonly refusals = new Refusals();
  /** Synced items a remote pass found missing here (down), with the local passes run by then. */
  readonly missingHere = new Map<number, number>();
  /** Local passes run so far. */
  localPasses = 0;
  /** Synced items a partial scan found missing (up): deleted on the second look. */
  missingBefore = new Set<number>();
  /** Items sending found changed on the service too: the next remote pass brings them down. */
  fetch: RemoteItem[] = [];
  /** Folders to look at in the next local pass; 'all' for a full scan. */
  dirty: Set<string> | 'all' = 'all';

  /**
   * Synced items missing here that the local pass has seen deleted, or has looked at since a
   * remote pass first found them missing: not moved here, so the service's changes to them win.
   */
  deletedHere(): ReadonlySet<number> {
    const ids = new Set(this.missingBefore);
    for (const [id, since] of this.missingHere) if (since < this.localPasses) ids.add(id);
    return ids;
  }

  markDirty(dirs: Iterable<string>): void {
    if (this.dirty === 'all') return;
    for (const d of dirs) this.dirty.add(d);
  }

  /** The items sending left for the remote pass, taken once. */
  takeFetch(): RemoteItem[] {
    const items = this.fetch;
    this.fetch = [];
    return items;
  }
}
