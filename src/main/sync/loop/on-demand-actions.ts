// A person's files-on-demand actions (docs/SYNC.md, Files on demand), applied between passes
// (loop/inbox.ts): download, free, pin, unpin. Each changes the journal (and, to free, the disk)
// so that the next pass does the rest: a download is a fetch for the next remote pass.
import { arrivesOnline, type Journal, type JournalItem } from '../../journal/journal';
import { AttentionError } from '../errors';
import type { LocalRoot } from '../local';
import { onlineItemAt, PLACEHOLDER_SUFFIX, placeholderOf } from '../placeholder';
import type { Logger, Trash } from '../ports';
import { asRemote } from '../remote';
import type { PassState } from './state';
import { freeFiles } from './free-files';

export type OnDemandOp = 'download' | 'free' | 'pin' | 'unpin';

export interface OnDemandContext {
  journal: Journal;
  local: LocalRoot;
  trash: Trash;
  state: PassState;
  log: Logger;
}

/**
 * Applies `op` to `paths` (relative to the root, local names; a placeholder's path names its
 * file). Every path is done that can be; those that cannot are said together in one refusal.
 */
export async function applyOnDemand(
  ctx: OnDemandContext,
  op: OnDemandOp,
  paths: readonly string[],
): Promise<void> {
  const refused: string[] = [];
  const inTheWay: string[] = [];
  const unknown: string[] = [];
  const toFree: JournalItem[] = [];
  for (const rel of paths) {
    const j = itemAt(ctx.journal, rel);
    if (!j) {
      // The root itself is no item: its pins are allowed, as a setting for the whole pair.
      if (rel === '' && (op === 'pin' || op === 'unpin')) setPin(ctx, op, '');
      else unknown.push(rel);
      continue;
    }
    if (op === 'pin' || op === 'unpin') setPin(ctx, op, j.localPath);
    if (op === 'unpin') continue;
    for (const f of filesOf(ctx.journal, j)) {
      if (op === 'free') toFree.push(f);
      else if (f.state === 'online') download(ctx, f);
    }
  }
  if (op === 'free') {
    // All at once: in batches, each one journal transaction (free-files.ts).
    const freed = await freeFiles(ctx, toFree);
    refused.push(...freed.unsent);
    inTheWay.push(...freed.inTheWay);
    if (freed.error !== undefined) throw freed.error;
  }
  if (unknown.length > 0) {
    throw new AttentionError('invalid', {
      key: 'engine.onDemand.notSynced',
      params: { n: unknown.length, path: unknown[0]! },
    });
  }
  if (refused.length > 0) {
    throw new AttentionError('stale', {
      key: 'engine.onDemand.freeRefused',
      params: { n: refused.length, path: refused[0]! },
    });
  }
  if (inTheWay.length > 0) {
    throw new AttentionError('invalid', {
      key: 'engine.onDemand.freeInTheWay',
      params: { path: inTheWay[0]!, placeholder: placeholderOf(inTheWay[0]!) },
    });
  }
}

/**
 * The item recorded at `rel`, else the online one whose placeholder `rel` is; a placeholder's path
 * still names its file once the file is here (a file manager's handler names it so).
 */
export function itemAt(journal: Journal, rel: string): JournalItem | undefined {
  const found = journal.items.atPath(rel) ?? onlineItemAt(journal, rel);
  if (found || !rel.endsWith(PLACEHOLDER_SUFFIX)) return found;
  const j = journal.items.atPath(rel.slice(0, -PLACEHOLDER_SUFFIX.length));
  return j?.kind === 'file' ? j : undefined;
}

function filesOf(journal: Journal, j: JournalItem): JournalItem[] {
  if (j.kind === 'file') return [j];
  return journal.items.descendants(j.localPath).filter((d) => d.kind === 'file');
}

function setPin(ctx: OnDemandContext, op: 'pin' | 'unpin', rel: string): void {
  if (op === 'pin') ctx.journal.onDemand.pin(rel);
  else ctx.journal.onDemand.unpin(rel);
}

/**
 * Asked for in full: the record keeps no service time (the planner's sign, down/plan.ts, that
 * the file comes down though the service did not change it), and the next remote pass fetches it.
 */
function download(ctx: OnDemandContext, j: JournalItem): void {
  if (j.remoteUpdatedAt === null) return;
  ctx.state.fetch.push(asRemote(j));
  ctx.journal.items.upsert({ ...j, remoteUpdatedAt: null });
}

/** What `files status` says of a path: its files, how many are online only, whether pinned. */
export interface OnDemandState {
  kind: 'file' | 'folder';
  files: number;
  online: number;
  pinned: boolean;
}

/** The state of the item at `rel` (a placeholder's path names its file); undefined if none. */
export function onDemandStateOf(journal: Journal, rel: string): OnDemandState | undefined {
  const j = itemAt(journal, rel);
  if (!j && rel !== '') return undefined;
  const files = j ? filesOf(journal, j) : [...journal.items.all()].filter((f) => f.kind === 'file');
  const at = j?.localPath ?? '';
  return {
    kind: j?.kind ?? 'folder',
    files: files.length,
    online: files.filter((f) => f.state === 'online').length,
    pinned: !arrivesOnline('online', journal.onDemand.pins(), at),
  };
}
