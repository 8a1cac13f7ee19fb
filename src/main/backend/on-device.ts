import type { OnDemandMode, OnDemandOp, OnDevice } from '../../shared/app-api';
import { onDemandDone, type SyncEngine } from '../engine';
import { fail } from './errors';
import type { Pairs } from './pairs';
import { folderStates, type FolderStates } from './row-states';

// Files on demand in the window (docs/SYNC.md): Browse's badges read from the live journal of the
// workspace's pair, and a person's action sent to its engine (`filesOnDemand`), answered once the
// engine applied it, a download once its files are here. The engine runs in this process: its
// journal is read between its statements, never beside another writer.

type Journal = SyncEngine['opts']['journal'];
type Item = NonNullable<ReturnType<Journal['items']['get']>>;

/** Whether a pin keeps the item at `path`: a pin of it or above (journal/on-demand.ts's rule). */
const pinnedBy = (pins: readonly string[], path: string) =>
  pins.some((p) => p === '' || path === p || path.startsWith(p + '/'));

/** An item's state here: its files, those online only, and whether a pin keeps it. */
function onDevice(journal: Journal, pins: readonly string[], j: Item): OnDevice {
  const { files, online } =
    j.kind === 'file'
      ? { files: 1, online: j.state === 'online' ? 1 : 0 }
      : journal.items.filesBelow(j.localPath);
  const pinned = pinnedBy(pins, j.localPath);
  const state = pinned ? 'pinned' : online === 0 ? 'full' : online === files ? 'online' : 'partly';
  return { kind: j.kind, id: j.remoteId, state, files, online };
}

/**
 * Refuses what a pin forbids, in words: freeing an item kept here on purpose (unpinned first), and
 * unpinning one kept by a pin of a folder above it (which an unpin of its own would leave kept).
 */
function refuseKept(journal: Journal, j: Item, op: OnDemandOp, workspace = ''): void {
  if (op !== 'free' && op !== 'unpin') return;
  const pins = journal.onDemand.pins();
  const above = pins.find((p) => p !== j.localPath && pinnedBy([p], j.localPath));
  const name = j.remoteName;
  if (above !== undefined && (op === 'unpin' || !pins.includes(j.localPath))) {
    const folder = above === '' ? workspace : above.slice(above.lastIndexOf('/') + 1);
    return fail('conflict', { key: 'backend.onDemand.pinnedAbove', params: { name, folder } });
  }
  if (op === 'free' && pins.includes(j.localPath))
    return fail('conflict', { key: 'backend.onDemand.pinned', params: { name } });
}

/** Synced here: in the journal and not an item the role keeps from this device. */
const synced = (j: Item | undefined): j is Item => j !== undefined && j.state !== 'not-permitted';

export class OnDeviceItems {
  constructor(private readonly pairs: Pairs) {}

  /** The pairs of an account's workspace (one, unless it is synced to two folders). */
  private pairsOf(accountId: string, workspaceId: number): string[] {
    return this.pairs
      .list()
      .filter((p) => p.accountId === accountId && p.workspaceId === workspaceId)
      .map((p) => p.id);
  }

  /**
   * The states of a folder's items synced here, and its rows' other states (`row-states.ts`);
   * none when the workspace has no pair. `above`: the folders above it, to know one left out.
   */
  folder(
    accountId: string,
    workspaceId: number,
    folderId: number,
    above: readonly number[] = [],
  ): { pairId: string | null; items: OnDevice[] } & FolderStates {
    const pairIds = this.pairsOf(accountId, workspaceId);
    for (const pairId of pairIds) {
      const journal = this.pairs.engineOf(pairId).opts.journal;
      const states = folderStates(journal, folderId, above);
      if (states.here === 'unknown') continue;
      const children = journal.items.children(folderId);
      const pins = journal.onDemand.pins();
      const items = children.filter(synced).map((j) => onDevice(journal, pins, j));
      return { pairId, items, ...states };
    }
    const none: FolderStates = { marks: [], excluded: [], here: 'unknown' };
    return { pairId: pairIds[0] ?? null, items: [], ...none };
  }

  /**
   * Applies `op` to one item through its pair's engine. A refusal (unsent changes, a name in the
   * way) rejects with the engine's words. A download (or a pin, which downloads) answers once the
   * files are here, or `waiting` when the pair is not syncing now or the round that should have
   * brought them did not (a problem of the item's, shown in Status): `onDemandDone`.
   */
  async act(
    accountId: string,
    workspaceId: number,
    kind: 'file' | 'folder',
    itemId: number,
    op: OnDemandOp,
  ): Promise<{ item: OnDevice | null; waiting: boolean }> {
    for (const pairId of this.pairsOf(accountId, workspaceId)) {
      const engine = this.pairs.engineOf(pairId);
      const { journal } = engine.opts;
      const j = journal.items.get(itemId);
      if (!synced(j) || j.kind !== kind) continue;
      refuseKept(journal, j, op, this.pairs.list().find((p) => p.id === pairId)?.workspaceName);
      const outcome = await onDemandDone(engine, journal, op, [j.localPath]);
      return { item: this.stateOf(journal, itemId), waiting: outcome.kind !== 'done' };
    }
    return fail('not-found', { key: 'backend.notSyncedYet' });
  }

  private stateOf(journal: Journal, itemId: number): OnDevice | null {
    const j = journal.items.get(itemId);
    return synced(j) ? onDevice(journal, journal.onDemand.pins(), j) : null;
  }

  /** Whether the pair's new files arrive online only; those here are left as they are. */
  mode(pairId: string): OnDemandMode {
    return this.pairs.engineOf(pairId).opts.journal.onDemand.mode();
  }

  /**
   * A new setting, read by the planner at each pass: files already here (and placeholders) stay
   * as they are; new ones arrive the new way.
   */
  setMode(pairId: string, mode: OnDemandMode): void {
    this.pairs.engineOf(pairId).opts.journal.onDemand.setMode(mode);
  }
}
