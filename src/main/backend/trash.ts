import { cp, lstat, mkdir, readdir, readFile, realpath, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { TrashEntry } from '../../shared/app-api';
import { fitName, type TrashRecord } from '../engine';
import { fail } from './errors';

/** At most this many entries are listed, newest first (a trash can hold a whole workspace). */
export const TRASH_LIST_MAX = 500;

const exists = (p: string) =>
  lstat(p).then(
    () => true,
    () => false,
  );

/**
 * What the sync moved to its trash (`<state>/trash`, recorded in `<state>/trash-records`: sync/trash.ts), as the window's Trash view
 * lists it: the records beside each batch whose item is still there (restored or removed by hand
 * since, it is not), newest first. An item recorded twice at one place (restored, then trashed
 * again) is its newest record.
 */
export async function listTrash(
  trashDir: string,
  recordsDir: string,
): Promise<{ items: TrashEntry[]; cut: boolean }> {
  const records = await readRecords(recordsDir);
  const items: TrashEntry[] = [];
  for (const r of records) {
    if (!(await exists(placeOf(trashDir, r)))) continue;
    items.push({
      id: r.trashed,
      name: r.relPath.split('/').pop() ?? r.relPath,
      relPath: r.relPath,
      root: r.root,
      kind: r.kind,
      trashedAt: r.at,
    });
    if (items.length === TRASH_LIST_MAX) break;
  }
  return { items, cut: items.length === TRASH_LIST_MAX && records.length > TRASH_LIST_MAX };
}

/** The trash's place of an entry, checked to be one it recorded and still holds. */
export async function trashedPath(
  trashDir: string,
  recordsDir: string,
  id: string,
): Promise<string> {
  const record = (await readRecords(recordsDir)).find((r) => r.trashed === id);
  if (!record || !(await exists(placeOf(trashDir, record))))
    return fail('not-found', { key: 'backend.trashGone' });
  return placeOf(trashDir, record);
}

/**
 * Puts an entry back where it was in its sync folder; under a numbered name (`a (2).txt`) when
 * something is there now (Keep theirs put the service's version at the place), so nothing is
 * replaced. The folders on the way are made when missing, and one reached through a link is
 * refused: nothing is written outside the sync folder. The engine then finds a new item there
 * and uploads it, as anything new in the folder.
 */
export async function restoreFromTrash(
  trashDir: string,
  recordsDir: string,
  id: string,
): Promise<{ path: string }> {
  const record = (await readRecords(recordsDir)).find((r) => r.trashed === id);
  if (!record) return fail('not-found', { key: 'backend.trashGone' });
  const from = placeOf(trashDir, record);
  if (!(await exists(from))) return fail('not-found', { key: 'backend.trashGone' });
  const names = record.relPath.split('/').filter((n) => n !== '' && n !== '.');
  if (names.length === 0 || names.includes('..'))
    return fail('invalid', { key: 'backend.notInside', params: { path: record.relPath } });
  let realRoot: string;
  try {
    realRoot = await realpath(record.root);
  } catch {
    return fail('not-found', { key: 'backend.trashRootGone', params: { dir: record.root } });
  }
  const parentRel = names.slice(0, -1);
  const parent = path.join(realRoot, ...parentRel);
  await mkdir(parent, { recursive: true });
  // Every folder on the way a real one: a link among them would lead the item elsewhere.
  if ((await realpath(parent)) !== parent)
    return fail('invalid', { key: 'backend.throughLink', params: { path: record.relPath } });
  const name = names[names.length - 1]!;
  let dest = path.join(parent, name);
  for (let n = 2; await exists(dest); n++)
    dest = path.join(parent, fitName(name, ` (${n})`, record.kind));
  try {
    await rename(from, dest);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await cp(from, dest, { recursive: true, preserveTimestamps: true, errorOnExist: true });
    await rm(from, { recursive: true });
  }
  return { path: path.join(record.root, ...parentRel, path.basename(dest)) };
}

const placeOf = (trashDir: string, r: TrashRecord) => path.join(trashDir, ...r.trashed.split('/'));

/** Every record, newest first; a place recorded again counts once, as its newest record. */
async function readRecords(recordsDir: string): Promise<TrashRecord[]> {
  let files: string[];
  try {
    files = (await readdir(recordsDir)).filter((f) => f.endsWith('.jsonl'));
  } catch {
    return [];
  }
  const all: TrashRecord[] = [];
  for (const f of files.sort()) {
    const text = await readFile(path.join(recordsDir, f), 'utf8');
    for (const line of text.split('\n')) {
      const r = parseRecord(line);
      if (r) all.push(r);
    }
  }
  const seen = new Set<string>();
  const newest: TrashRecord[] = [];
  for (const r of all.reverse()) {
    if (seen.has(r.trashed)) continue;
    seen.add(r.trashed);
    newest.push(r);
  }
  return newest.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

/** A line as a record, or null (a line cut short by a crash is skipped, not an error). */
function parseRecord(line: string): TrashRecord | null {
  if (line.trim() === '') return null;
  try {
    const r = JSON.parse(line) as Partial<TrashRecord>;
    if (
      typeof r.trashed !== 'string' ||
      typeof r.root !== 'string' ||
      typeof r.relPath !== 'string' ||
      (r.kind !== 'file' && r.kind !== 'folder') ||
      typeof r.at !== 'string' ||
      r.trashed.split('/').includes('..')
    )
      return null;
    return r as TrashRecord;
  } catch {
    return null;
  }
}
