// The user's mimeapps.list (the freedesktop "MIME applications associations" file): our one line,
// `TYPE=ID;` in [Default Applications], added and removed as text, every other byte of the file
// left as it was (a person's own defaults, comments, other groups, their order and spacing), so
// that --uninstall after --install gives back the very file there was before.
import { realpath, rm } from 'node:fs/promises';
import { modeOf, readIfAny, writeAtomically } from './entry-files';

const GROUP = '[Default Applications]';
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Where [Default Applications]'s lines are in `text`: from just after its header line to the next group. */
function groupSpan(text: string): { header: number; start: number; end: number } | null {
  const header = new RegExp(`^${escapeRegExp(GROUP)}[ \\t]*$`, 'm').exec(text);
  if (!header) return null;
  const lineEnd = header.index + header[0].length;
  const start = text[lineEnd] === '\n' ? lineEnd + 1 : lineEnd;
  const next = /^\[/m.exec(text.slice(start));
  return { header: header.index, start, end: next ? start + next.index : text.length };
}

/** The key lines for `type` in the group (with their line break), as [from, to) offsets. */
function linesOf(text: string, type: string): { from: number; to: number; value: string }[] {
  const span = groupSpan(text);
  if (!span) return [];
  const re = new RegExp(`^${escapeRegExp(type)}[ \\t]*=[ \\t]*(.*)$`, 'gm');
  const found: { from: number; to: number; value: string }[] = [];
  const body = text.slice(span.start, span.end);
  for (const m of body.matchAll(re)) {
    const from = span.start + m.index;
    const end = from + m[0].length;
    // The line with its own break; the last line of a file without one, with the break before it.
    if (text[end] === '\n') found.push({ from, to: end + 1, value: m[1]! });
    else found.push({ from: from > 0 ? from - 1 : from, to: end, value: m[1]! });
  }
  return found;
}

const cut = (text: string, spans: { from: number; to: number }[]) =>
  [...spans].reverse().reduce((t, s) => t.slice(0, s.from) + t.slice(s.to), text);

/** `text` with `type`'s default set to `id` alone (any earlier default for it replaced). */
export function withDefault(text: string, type: string, id: string): string {
  const line = `${type}=${id};`;
  const rest = cut(text, linesOf(text, type));
  const span = groupSpan(rest);
  if (span) {
    // Right under the header: removing it again gives back the group exactly.
    if (rest[span.start - 1] === '\n')
      return rest.slice(0, span.start) + `${line}\n` + rest.slice(span.start);
    return `${rest}\n${line}`;
  }
  if (rest === '') return `${GROUP}\n${line}\n`;
  return `${rest}${rest.endsWith('\n') ? '' : '\n'}\n${GROUP}\n${line}\n`;
}

/**
 * `text` without our line (`type` given `id` alone); null when it holds none. A [Default
 * Applications] group left empty at the end of the file is the one withDefault added: it goes
 * too, with the blank line before it.
 */
export function withoutDefault(text: string, type: string, id: string): string | null {
  const ours = linesOf(text, type).filter((l) => l.value.replace(/;\s*$/, '').trim() === id);
  if (ours.length === 0) return null;
  const rest = cut(text, ours);
  if (rest === `${GROUP}\n`) return '';
  const added = `\n\n${GROUP}\n`;
  return rest.endsWith(added) ? rest.slice(0, -(added.length - 1)) : rest;
}

/** The file to write: a mimeapps.list that is a link (a dotfiles repository's) is written through. */
const target = (file: string) => realpath(file).catch(() => file);

/** Makes `id` the default app of `type` in `file`. */
export async function setDefaultApp(file: string, type: string, id: string): Promise<void> {
  const real = await target(file);
  const text = await readIfAny(real);
  const next = withDefault(text ?? '', type, id);
  if (next !== text) await writeAtomically(real, next, await modeOf(real, 0o644));
}

/** Removes our line; false when there was none (the file is left untouched). */
export async function unsetDefaultApp(file: string, type: string, id: string): Promise<boolean> {
  const real = await target(file);
  const text = await readIfAny(real);
  const next = text === null ? null : withoutDefault(text, type, id);
  if (next === null) return false;
  // Nothing left: the file withDefault created.
  if (next === '') await rm(real, { force: true });
  else await writeAtomically(real, next, await modeOf(real, 0o644));
  return true;
}
