import { lstatSync } from 'node:fs';
import type { JournalItem } from '../../src/main/journal/journal';
import { LocalRoot } from '../../src/main/sync/local';
import {
  isOurPlaceholder,
  onlineItemAt,
  PLACEHOLDER_SUFFIX,
  placeholderOf,
} from '../../src/main/sync/placeholder';
import type { SoakClient, World } from './world';

// Files on demand in the soak (issue 41): which files on a client's disk are placeholders of
// ours, and what a person's action on one means to the ledger. The engine's own functions say
// what is ours (placeholder.ts), as the engine reads it.

/** A placeholder of ours on a client's disk, and the online item it stands for. */
export interface PlaceholderHere {
  rel: string;
  row: JournalItem;
}

/** Whether the file at `rel` is a placeholder of ours (the journal's, its text as written). */
export function placeholderAt(c: SoakClient, rel: string): JournalItem | undefined {
  const journal = c.pair?.journal;
  if (!journal) return undefined;
  const row = onlineItemAt(journal, rel);
  return row && isOurPlaceholder(new LocalRoot(c.dir), row) ? row : undefined;
}

/** Whether `rel` is a placeholder of ours (the engine opened to look, as a restart would). */
export async function isPlaceholder(c: SoakClient, rel: string): Promise<boolean> {
  if (!rel.endsWith(PLACEHOLDER_SUFFIX)) return false;
  await c.open();
  return placeholderAt(c, rel) !== undefined;
}

/** The placeholders of ours among `files` (a client's listing), sorted as it is. */
export function placeholdersIn(c: SoakClient, files: readonly string[]): PlaceholderHere[] {
  const out: PlaceholderHere[] = [];
  for (const rel of files) {
    const row = placeholderAt(c, rel);
    if (row) out.push({ rel, row });
  }
  return out;
}

/**
 * The service's content of the item a placeholder stands for, when it is still the version the
 * placeholder tells of (its size: the placeholder's facts): a person deleting the placeholder
 * deletes that on purpose. A newer version there is not what they saw.
 */
export function contentBehind(w: World, row: JournalItem): string | undefined {
  const it = w.sb.sandbox.db
    .prepare(`SELECT blob, size FROM items WHERE id = ? AND kind = 'file'`)
    .get(row.remoteId) as { blob: string | null; size: number } | undefined;
  if (!it?.blob || (row.remoteSize !== null && it.size !== row.remoteSize)) return undefined;
  return it.blob;
}

/** The contents behind the placeholders at or below a local path (deleting it deletes them). */
export function contentsBehind(w: World, c: SoakClient, rel: string): string[] {
  const { files } = c.entries();
  const below = files.filter((f) => f === rel || f.startsWith(rel + '/'));
  return placeholdersIn(c, below)
    .map((p) => contentBehind(w, p.row))
    .filter((b): b is string => b !== undefined);
}

/**
 * The service's version of an online item, as its placeholder must tell it at quiescence: its
 * size (the placeholder's facts in the journal); undefined when the item is no file there.
 */
export function serviceSize(w: World, remoteId: number): number | undefined {
  const it = w.sb.sandbox.db
    .prepare(`SELECT size FROM items WHERE id = ? AND kind = 'file'`)
    .get(remoteId) as { size: number } | undefined;
  return it?.size;
}

/** Whether an online row's placeholder is on the disk, ours, and no file at the real name. */
export function placeholderMissing(
  c: SoakClient,
  row: JournalItem,
  refused: ReadonlySet<string> = new Set(),
): string | undefined {
  const st = lstatSync(c.abs(placeholderOf(row.localPath)), { throwIfNoEntry: false });
  if (!st?.isFile()) return 'no placeholder';
  if (!isOurPlaceholder(new LocalRoot(c.dir), row)) return 'its placeholder is not ours';
  // A folder a person made at the real name is kept here with a name problem (refused).
  if (!refused.has(row.localPath) && lstatSync(c.abs(row.localPath), { throwIfNoEntry: false })) {
    return 'a file at its real name beside its placeholder';
  }
  return undefined;
}
