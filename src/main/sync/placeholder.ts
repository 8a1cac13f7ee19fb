// Files on demand (docs/SYNC.md): a file kept online only is a placeholder beside where the
// file would be, `NAME.wsync`, a short text a person can read, with the service's time. It holds
// nothing of the file, so reading it (an indexer, a thumbnailer) never downloads anything.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { LANGUAGES, translator, type Language } from '../../shared/i18n';
import type { Journal, JournalItem } from '../journal/journal';
import type { LocalRoot } from './local';
import { PARTIAL_DIR } from './paths';
import { PLACEHOLDER_SUFFIX } from '../../shared/placeholder';

/** The placeholder's suffix: exact, lower case (one constant with the file managers' opener). */
export { PLACEHOLDER_SUFFIX };

export const placeholderOf = (rel: string): string => rel + PLACEHOLDER_SUFFIX;

/** The real name a placeholder's name stands for; undefined for any other name. */
export function realNameOf(name: string): string | undefined {
  if (!name.endsWith(PLACEHOLDER_SUFFIX) || name.length === PLACEHOLDER_SUFFIX.length) {
    return undefined;
  }
  return name.slice(0, -PLACEHOLDER_SUFFIX.length);
}

/** The item online only whose placeholder `rel` is; undefined when it is no placeholder of ours. */
export function onlineItemAt(journal: Journal, rel: string): JournalItem | undefined {
  if (realNameOf(rel.slice(rel.lastIndexOf('/') + 1)) === undefined) return undefined;
  const j = journal.items.atPath(rel.slice(0, -PLACEHOLDER_SUFFIX.length));
  return j?.kind === 'file' && j.state === 'online' ? j : undefined;
}

/**
 * The item online only whose placeholder `e` is a copy of, or was before it moved (its size, time
 * and bytes): such a file is never sent as a file (docs/SYNC.md, Files on demand).
 */
export function placeholderCopyOf(
  journal: Journal,
  local: LocalRoot,
  e: { path: string; name: string; size: number; mtimeMs: number },
): JournalItem | undefined {
  if (realNameOf(e.name) === undefined) return undefined;
  const same = journal.onDemand.withPlaceholderFacts(e.size, e.mtimeMs);
  if (same.length === 0) return undefined;
  let hash: string;
  try {
    hash = sha256(readFileSync(local.abs(e.path)));
  } catch {
    return undefined;
  }
  return same.find((j) => j.hash === hash);
}

/** Whether `j` is online only, or a folder with an item online only below it. */
export function holdsOnline(journal: Journal, j: JournalItem): boolean {
  if (j.state === 'online') return true;
  return (
    j.kind === 'folder' && journal.items.descendants(j.localPath).some((d) => d.state === 'online')
  );
}

/** What a placeholder says of its file: no id, no token, no address. */
export interface PlaceholderFacts {
  name: string;
  size: number;
  updatedAt: string;
}

/** The placeholder's text, in the engine's language. */
export function placeholderText(f: PlaceholderFacts, lang: Language): string {
  const tr = translator(lang);
  return (
    tr.t('engine.placeholder.text', {
      name: f.name,
      size: f.size,
      modified: f.updatedAt,
    }) + '\n'
  );
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/**
 * Writes the placeholder of a file to be at `rel` (through the cache, then renamed into place,
 * so a half-written one is never seen), with the service's time. Returns what the journal keeps
 * of it: its size and time, and its text's hash (to know it as ours later).
 */
export function writePlaceholder(
  local: LocalRoot,
  rel: string,
  f: PlaceholderFacts,
  lang: Language,
): { st: Stats; hash: string } {
  const text = placeholderText(f, lang);
  const temp = `${PARTIAL_DIR}/placeholder-${randomBytes(6).toString('hex')}`;
  const abs = local.abs(temp);
  writeFileSync(abs, text);
  const ms = Date.parse(f.updatedAt);
  if (Number.isFinite(ms)) utimesSync(abs, new Date(), new Date(ms));
  try {
    const st = local.confined.renameAndStat(temp, placeholderOf(rel));
    return { st, hash: sha256(text) };
  } catch (err) {
    rmSync(abs, { force: true });
    throw err;
  }
}

/**
 * Whether the file at `j`'s placeholder is still the text written there (same size and time,
 * else the same bytes): anything else is a person's data, never removed.
 */
export function isOurPlaceholder(
  local: LocalRoot,
  j: JournalItem,
  st = local.stat(placeholderOf(j.localPath)),
): boolean {
  if (!st?.isFile() || j.state !== 'online') return false;
  if (st.size === j.size && st.mtimeMs === j.mtimeMs) return true;
  if (j.hash === null || st.size > 64 * 1024) return false;
  try {
    return sha256(readFileSync(local.abs(placeholderOf(j.localPath)))) === j.hash;
  } catch {
    return false;
  }
}

/** Our placeholder's text in each language, as a pattern (any name, size and time). */
const TEXTS: readonly RegExp[] = LANGUAGES.map((lang) => {
  const marks = { name: '\u0000N', size: 424242, modified: '\u0000M' };
  const text = placeholderText({ ...marks, updatedAt: marks.modified }, lang);
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const size = translator(lang).count(marks.size);
  const pattern = escaped
    .replace('\u0000N', '[^\\n]*')
    .replace('\u0000M', '[^\\n]*')
    .replace(size.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), '[0-9.,\\u00a0\\u202f ]+');
  return new RegExp(`^${pattern}$`);
});

/**
 * Whether the file `e` (a `*.wsync` the journal does not know) holds exactly a placeholder's text
 * of ours: one whose item is gone there (deleted while its placeholder was moved here, say). It
 * holds no data of anyone's, and is never sent as a file.
 */
export function isStalePlaceholder(
  local: LocalRoot,
  e: { path: string; name: string; size: number },
): boolean {
  if (realNameOf(e.name) === undefined || e.size > 16 * 1024) return false;
  let text: string;
  try {
    text = readFileSync(local.abs(e.path), 'utf8');
  } catch {
    return false;
  }
  return TEXTS.some((re) => re.test(text));
}
