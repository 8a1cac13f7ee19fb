import type { SyncPair } from '../../shared/app-api';
import type { Translator, WireWords } from '../../shared/i18n';
import { mainLanguage } from './language';
import type { Notice } from './notify-batch';

/** Something a pair needs the person for, worth a notification once. */
export interface AttentionCause {
  /** Stable while the cause lasts: a conflict's id, 'signed-out', 'disk-full'. */
  key: string;
  kind: 'conflict' | 'signed-out' | 'disk-full';
  pairId: string;
  workspaceName: string;
  /** The conflict's file, or the failure's text (`words` the same as data, when it has them). */
  text: string;
  words?: WireWords;
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
    out.push({
      ...base,
      key: kind,
      kind,
      text: status.error!.message,
      ...(status.error!.words ? { words: status.error!.words } : {}),
    });
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

/**
 * One notice for a burst of causes: one reads as itself ("Budget.txt was changed here and on the
 * service: both versions are kept; choose one in Workspace Sync"), several as what and where. A
 * click shows the pair's card (the first one's, when several pairs).
 */
export function summarizeCauses(
  batch: readonly AttentionCause[],
  tr: Translator = mainLanguage(),
): Notice | null {
  const first = batch[0];
  if (!first) return null;
  const target = { kind: 'pair' as const, pairId: first.pairId };
  const pairs = new Set(batch.map((c) => c.pairId));
  const title = pairs.size === 1 ? first.workspaceName : tr.t('app.name');
  if (batch.length === 1) {
    const body =
      first.kind === 'conflict'
        ? tr.t('notice.conflict', { name: first.text })
        : first.words
          ? tr.say(first.words)
          : first.text;
    return { title, body, target };
  }
  const conflicts = batch.filter((c) => c.kind === 'conflict').length;
  const parts = [
    conflicts > 0 ? tr.t('notice.conflicts', { n: conflicts }) : '',
    batch.some((c) => c.kind === 'signed-out') ? tr.t('notice.signedOut') : '',
    batch.some((c) => c.kind === 'disk-full') ? tr.t('notice.diskFull') : '',
  ].filter((p) => p !== '');
  // The causes are listed in the language's way ("a; b; c"), then where.
  const what = parts.join('; ');
  const body =
    pairs.size > 1
      ? tr.t('notice.causesIn', { what, n: pairs.size })
      : tr.t('notice.causes', { what });
  return { title, body: `${body.charAt(0).toUpperCase()}${body.slice(1)}`, target };
}
