// Files on demand (docs/SYNC.md): a file kept online only is a placeholder beside where the
// file would be, `NAME.wsync`, a short text a person can read, with the service's time. It holds
// nothing of the file, so reading it (an indexer, a thumbnailer) never downloads anything.
import { hash, randomBytes } from 'node:crypto';
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

/** The placeholder's text as the catalog formats it (`placeholderText` is the same, faster). */
export function formatPlaceholderText(f: PlaceholderFacts, lang: Language): string {
  const tr = translator(lang);
  return (
    tr.t('engine.placeholder.text', {
      name: f.name,
      size: f.size,
      modified: f.updatedAt,
    }) + '\n'
  );
}

/** Stand-ins formatted once per language, then replaced by each placeholder's facts. */
const MARK = { name: '\u0000N', size: 424242, updatedAt: '\u0000M' };
const SIZE = '\u0000S';
const templates = new Map<Language, string[]>();

/** The catalog's text with stand-ins, cut at them (each stand-in a part of its own). */
function templateOf(lang: Language): string[] {
  const cut = (parts: string[], at: string, as = at) =>
    parts.flatMap((part) =>
      part.startsWith('\u0000')
        ? [part]
        : part.split(at).flatMap((piece, i) => (i === 0 ? [piece] : [as, piece])),
    );
  const text = formatPlaceholderText(MARK, lang);
  const size = translator(lang).count(MARK.size);
  return cut(cut(cut([text], MARK.name), MARK.updatedAt), size, SIZE);
}

/**
 * The placeholder's text, in the engine's language: the catalog's message formatted once with
 * stand-ins, then filled in (formatting the message for each of a mirror's placeholders cost
 * more than writing it).
 */
export function placeholderText(f: PlaceholderFacts, lang: Language): string {
  let parts = templates.get(lang);
  if (!parts) templates.set(lang, (parts = templateOf(lang)));
  const count = translator(lang).count;
  let out = '';
  for (const part of parts) {
    if (part === MARK.name) out += f.name;
    else if (part === MARK.updatedAt) out += f.updatedAt;
    else if (part === SIZE) out += count(f.size);
    else out += part;
  }
  return out;
}

// One call, not a Hash object per placeholder (a mirror hashes a million texts).
const sha256 = (b: Buffer | string) => hash('sha256', b, 'hex');

/**
 * Names of placeholders written aside: this process's prefix and a count (a random name each
 * cost a call into the system's random source per placeholder). `.part`: one left by a pass
 * killed before its rename is removed at the next start (loop/root.ts, tidyCache).
 */
const ASIDE_PREFIX = `${PARTIAL_DIR}/placeholder-${randomBytes(6).toString('hex')}-`;
let asideCount = 0;

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
  const temp = `${ASIDE_PREFIX}${++asideCount}.part`;
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
