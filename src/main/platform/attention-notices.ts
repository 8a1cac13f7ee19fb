import type { SyncPair } from '../../shared/app-api';
import type { Notice } from './notify-batch';

/** Something a pair needs the person for, worth a notification once. */
export interface AttentionCause {
  /** Stable while the cause lasts: a conflict's id, 'signed-out', 'disk-full'. */
  key: string;
  kind: 'conflict' | 'signed-out' | 'disk-full';
  pairId: string;
  workspaceName: string;
  /** The conflict's file, or the failure's words. */
  text: string;
}

const nameOf = (rel: string) => rel.slice(rel.lastIndexOf('/') + 1);

/** What a pair's status says needs the person now. */
export function causesOf(pair: SyncPair): AttentionCause[] {
  const { status } = pair;
  const base = { pairId: pair.id, workspaceName: pair.workspaceName };
  const out: AttentionCause[] = [];
  for (const c of status.conflicts) {
    if (c.id !== undefined && c.copy !== undefined)
      out.push({ ...base, key: `conflict:${c.id}`, kind: 'conflict', text: nameOf(c.path) });
  }
  const kind = status.error?.kind;
  if (kind === 'signed-out' || kind === 'disk-full')
    out.push({ ...base, key: kind, kind, text: status.error!.message });
  return out;
}

/**
 * Each cause once: a conflict when it appears, a sign-out or a full disk when the pair enters it
 * (a full disk retried is the same cause; once the pair is up to date, a new one is new). The causes
 * a pair already has when it is first seen (the app starting) were announced before, if at all.
 */
export class AttentionNotices {
  private readonly known = new Map<string, Set<string>>();

  /** The causes new in this status of the pair. */
  update(pair: SyncPair): AttentionCause[] {
    const causes = causesOf(pair);
    const before = this.known.get(pair.id);
    const now = new Set(causes.map((c) => c.key));
    // A failure lasts until the pair is up to date again: its retries pass through other states
    // (scanning, syncing) without it, and are the same cause.
    if (before && pair.status.state !== 'idle') {
      for (const key of before) if (key === 'disk-full' || key === 'signed-out') now.add(key);
    }
    this.known.set(pair.id, now);
    return before ? causes.filter((c) => !before.has(c.key)) : [];
  }

  /** A pair removed: forgotten. */
  retain(pairIds: Iterable<string>): void {
    const keep = new Set(pairIds);
    for (const id of this.known.keys()) if (!keep.has(id)) this.known.delete(id);
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * One notice for a burst of causes: one reads as itself ("Budget.txt was changed here and on the
 * service: both versions are kept; choose one in Workspace Sync"), several as what and where. A
 * click shows the pair's card (the first one's, when several pairs).
 */
export function summarizeCauses(batch: readonly AttentionCause[]): Notice | null {
  const first = batch[0];
  if (!first) return null;
  const target = { kind: 'pair' as const, pairId: first.pairId };
  const pairs = new Set(batch.map((c) => c.pairId));
  const title = pairs.size === 1 ? first.workspaceName : 'Workspace Sync';
  if (batch.length === 1) {
    const body =
      first.kind === 'conflict'
        ? `${first.text} was changed here and on the service: both versions are kept; choose one in Workspace Sync.`
        : first.text;
    return { title, body, target };
  }
  const conflicts = batch.filter((c) => c.kind === 'conflict').length;
  const parts = [
    conflicts > 0 ? `${plural(conflicts, 'conflict')} to settle` : '',
    batch.some((c) => c.kind === 'signed-out')
      ? 'signed out: sign in again to continue syncing'
      : '',
    batch.some((c) => c.kind === 'disk-full') ? 'a disk is full: free some space' : '',
  ].filter((p) => p !== '');
  const where = pairs.size > 1 ? ` in ${plural(pairs.size, 'folder')}` : '';
  const body = parts.join('; ');
  return { title, body: `${body.charAt(0).toUpperCase()}${body.slice(1)}${where}.`, target };
}
