import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { JournalItem } from '../../src/main/journal/journal';
import { conflictOriginal } from '../../src/main/sync/conflict-copy';
import { serviceKey } from '../../src/main/sync/names';
import { changeSelection } from '../../src/main/sync/loop/selection';
import type { RemoteDeleteHold } from '../../src/main/sync/loop/remote-guard';
import type { SyncSummary } from '../../src/shared/sync-status';
import { localTree, pastPathMax, sha } from '../sync/harness';
import { placeholderAt, placeholderMissing } from './placeholders';
import { placeholderOf } from '../../src/main/sync/placeholder';
import type { SoakClient, World } from './world';

export interface Findings {
  divergences: string[];
  lost: string[];
  duplicates: string[];
}

/** Syncs of every client, round after round, before the service and the disks must agree. */
export const MAX_ROUNDS = 4;

const WORK: (keyof SyncSummary)[] = [
  'foldersCreated',
  'filesDownloaded',
  'moved',
  'trashed',
  'conflicts',
  'remoteFoldersCreated',
  'uploaded',
  'remoteMoved',
  'remoteDeleted',
];

export const didWork = (s: SyncSummary) => WORK.some((k) => (s[k] ?? 0) > 0);
export const describeWork = (s: SyncSummary) =>
  WORK.filter((k) => (s[k] ?? 0) > 0)
    .map((k) => `${k}=${s[k]}`)
    .join(' ');

/**
 * Quiescence: the operations have stopped, the faults are off, the roles are back. Every client
 * then syncs until a whole round does nothing; then the invariants of the issue are checked.
 */
export async function checkAtQuiescence(world: World): Promise<Findings> {
  // What steps found broken as they ran (an idle sync that asked too much of the service).
  const findings: Findings = {
    divergences: [...world.broken],
    lost: [...world.lostNow],
    duplicates: [],
  };
  world.sb.setFaults('');
  for (const c of world.clients) {
    await world.setRole(c, null);
    // Every folder chosen again (selective sync): what was left out comes down, kept copies merge.
    const journal = (await c.open()).journal;
    changeSelection(journal, { include: [...journal.selection.ids()] });
    // The clients learn of a role change at their next safety-net walk.
    c.tenMinutesPass();
  }

  let quiet = false;
  for (let round = 1; round <= MAX_ROUNDS && !quiet; round++) {
    quiet = true;
    for (const c of world.clients) {
      const result = await c.sync();
      if (result instanceof Error) {
        quiet = false;
        // The guard asks in the two cases docs/SYNC.md names, which the world's deletions can
        // reach: everything this side holds, or nearly everything (a tenth or less left), deleted
        // there (a colleague deleting the folder that holds it all); or a mass deletion across the
        // tree (10 or more topmost deletions in 3 or more folders, taking more than half). Any
        // other hold is a divergence. What the last hour moved to the trash here (`recent`)
        // counts with it, as the guard counts it.
        const held = c.pair?.engine.heldRemoteDeletes();
        if (held && heldAsDocumented(held) && round < MAX_ROUNDS) {
          c.pair!.engine.answerRemoteDeletes('trash');
          world.figures.asked++;
          continue;
        }
        if (round === MAX_ROUNDS)
          findings.divergences.push(`${c.name}: sync failed: ${result.message}`);
      } else if (didWork(result)) quiet = false;
    }
  }
  if (!quiet) findings.divergences.push(`no quiet round within ${MAX_ROUNDS} rounds of syncs`);

  // Keyed by path and kind: the service may hold a folder and a file of one name side by side.
  // A file's value is its content, and its size: a placeholder here is a file of that size there.
  const remote = new Map(
    world
      .remoteEntries()
      .map((e) => [
        keyOf(e.path, e.kind),
        e.kind === 'folder' ? 'dir' : `${e.blob ?? ''} ${PLACEHOLDER}${e.size}`,
      ]),
  );
  for (const c of world.clients) {
    // Two local names the service takes for one (`Docs` and `docs`, NFC and NFD on Linux): the
    // second is refused by name, kept here and shown as a problem. That is the documented outcome.
    const problems = c.pair?.engine.status().problems ?? [];
    const refused = problems.filter((p) => p.reason === 'name' && p.remoteId === null);
    const refusedPaths = new Set(refused.map((p) => p.path));
    // Synced items moved here into such a folder wait with it: the service keeps them where they
    // were until the user renames one of the two.
    const waiting = waitingInRefused(c, refusedPaths);
    const waitingThere = waiting.map(servicePaths(c));
    // What cannot exist here (a path past PATH_MAX) is no divergence, but it must be a problem.
    const tooLong = [...remote.keys()].filter((k) => tooLongHere(c, k));
    // Each problem's path in the service's names (a name mapped here is compared as it is there).
    const there = new Map(problems.map((p) => [p, serviceNameOf(c, p.path)]));
    const said = problems.filter((p) => tooLong.some((k) => underRemote(k, there.get(p)!)));
    const unsaid: string[] = [];
    for (const k of tooLong.sort()) {
      // The topmost of a subtree once: the chain below it says nothing more.
      if (unsaid.some((u) => underRemote(k, u.replace(/\/$/, '')))) continue;
      if (!said.some((p) => underRemote(k, there.get(p)!))) {
        unsaid.push(k);
        findings.divergences.push(
          `${c.name}: cannot exist here (a path past ${PATH_MAX} bytes) and no problem says so: ${k}`,
        );
      }
    }
    const seen = new Map(
      [...remote].filter(
        ([p]) => !waitingThere.some((w) => underRemote(p, w)) && !tooLong.includes(p),
      ),
    );
    findings.divergences.push(...compareTrees(c.name, mappedTree(c, refusedPaths), seen));
    findings.divergences.push(
      ...journalMismatches(c, world, new Set(waiting.map((row) => row.remoteId)), refusedPaths),
    );
    for (const p of problems) {
      if (refused.includes(p) || said.includes(p)) continue;
      findings.divergences.push(`${c.name}: problem left at ${p.path}: ${p.message}`);
    }
  }
  findings.divergences.push(...outsideRoots(world));
  findings.divergences.push(...unwritten(world));
  findings.lost.push(...lostContents(world));
  findings.duplicates.push(...duplicates(world));

  // A restart must find nothing to do.
  for (const c of world.clients) {
    await c.close();
    const result = await c.sync();
    if (result instanceof Error)
      findings.divergences.push(`${c.name}: restart failed: ${result.message}`);
    else if (didWork(result)) {
      findings.divergences.push(`${c.name}: a restart found work: ${describeWork(result)}`);
    }
  }
  return findings;
}

const keyOf = (p: string, kind: 'folder' | 'file') => (kind === 'folder' ? `${p}/` : p);

/** Linux's longest path, its terminating NUL included. */
const PATH_MAX = 4096;

/**
 * Whether an item of the service (by its comparison key) cannot exist on this client's disk: its
 * path there, in the service's names (the deep chain's are plain ASCII, mapped to themselves),
 * passes PATH_MAX.
 */
const tooLongHere = (c: SoakClient, key: string) =>
  Buffer.byteLength(c.abs(key.replace(/\/$/, ''))) + 1 > PATH_MAX;

const underRefused = (rel: string, refused: ReadonlySet<string>) =>
  [...refused].some((r) => rel === r || rel.startsWith(r + '/'));

/** A comparison key at or below a remote path (its folder key, its file key, or below). */
const underRemote = (key: string, remotePath: string) =>
  key === remotePath || key.startsWith(remotePath + '/');

/**
 * A local path in the service's names: its deepest recorded folder's path there (a name mapped
 * here, `a：b` for `a:b` on Windows, is the service's again), then the rest as it is (what was
 * never placed: the deep chain's plain ASCII names).
 */
function serviceNameOf(c: SoakClient, rel: string): string {
  const parts = rel.split('/');
  for (let i = parts.length; i > 0; i--) {
    const row = c.pair!.journal.items.atPath(parts.slice(0, i).join('/'));
    if (row) return [servicePaths(c)(row), ...parts.slice(i)].join('/');
  }
  return rel;
}

/** Each journal row's path on the service, through the rows of its folders. */
function servicePaths(c: SoakClient): (row: JournalItem) => string {
  const byId = new Map([...c.pair!.journal.items.all()].map((row) => [row.remoteId, row]));
  return (row) => {
    const parts = [row.remoteName];
    for (let p = byId.get(row.remoteParentId); p; p = byId.get(p.remoteParentId)) {
      parts.unshift(p.remoteName);
    }
    return parts.join('/');
  };
}

/**
 * Synced items whose entry on disk now lies in a folder refused by name: each one's move waits on
 * that folder (with everything it holds).
 */
function waitingInRefused(c: SoakClient, refused: ReadonlySet<string>): JournalItem[] {
  if (refused.size === 0) return [];
  const inside = new Set<string>();
  for (const rel of localTree(c.dir).keys()) {
    if (!underRefused(rel, refused)) continue;
    const st = lstatSync(c.abs(rel), { throwIfNoEntry: false });
    if (st) inside.add(`${st.dev}:${st.ino}`);
  }
  return [...c.pair!.journal.items.all()].filter(
    (row) => !underRefused(row.localPath, refused) && inside.has(`${row.dev}:${row.ino}`),
  );
}

/** The client's disk in the service's names, through its journal's record of each entry. */
function mappedTree(c: SoakClient, refused: ReadonlySet<string>): Map<string, string> {
  const journal = c.pair!.journal;
  const remotePath = servicePaths(c);
  const out = new Map<string, string>();
  for (const [rel, value] of localTree(c.dir)) {
    if (underRefused(rel, refused)) continue;
    // A placeholder of ours is its file, online only: the file there, of the size it tells of.
    const online = placeholderAt(c, rel);
    if (online) {
      out.set(keyOf(remotePath(online), 'file'), `${PLACEHOLDER}${online.remoteSize}`);
      continue;
    }
    const row = journal.items.atPath(rel);
    const kind = value === 'dir' ? 'folder' : 'file';
    out.set(keyOf(row ? remotePath(row) : `(not synced) ${rel}`, kind), value);
  }
  return out;
}

/**
 * A file's value in the trees compared: its content and, after this, its size (the service's
 * file), or a placeholder's facts (a placeholder here, the size its journal record tells of).
 */
const PLACEHOLDER = 'placeholder of ';

function compareTrees(
  who: string,
  local: Map<string, string>,
  remote: Map<string, string>,
): string[] {
  const out: string[] = [];
  for (const [p, v] of local) {
    const r = remote.get(p);
    if (r === undefined) out.push(`${who}: only on disk: ${p}`);
    else if (v.startsWith(PLACEHOLDER) ? !r.endsWith(` ${v}`) : r.split(' ')[0] !== v) {
      out.push(`${who}: other ${v.startsWith(PLACEHOLDER) ? 'size' : 'content'}: ${p}`);
    }
  }
  for (const p of remote.keys()) if (!local.has(p)) out.push(`${who}: only on the service: ${p}`);
  return out;
}

/** Every journal row is an item of the service where the row says, and an entry on the disk. */
function journalMismatches(
  c: SoakClient,
  world: World,
  waiting: ReadonlySet<number>,
  refused: ReadonlySet<string>,
): string[] {
  const out: string[] = [];
  const item = world.sb.sandbox.db.prepare(
    `SELECT kind, parent_id, filename FROM items WHERE id = ?`,
  );
  for (const row of c.pair!.journal.items.all()) {
    const it = item.get(row.remoteId) as
      { kind: string; parent_id: number; filename: string } | undefined;
    if (!it) out.push(`${c.name}: journal row of a deleted item: ${row.localPath}`);
    else if (
      it.kind !== row.kind ||
      it.parent_id !== row.remoteParentId ||
      it.filename !== row.remoteName
    ) {
      out.push(`${c.name}: journal row out of date: ${row.localPath} (service: ${it.filename})`);
    }
    if (waiting.has(row.remoteId)) continue;
    // Moved past PATH_MAX with its folder: there, but no path reaches it (a problem says so).
    const onDisk = row.state === 'online' ? placeholderOf(row.localPath) : row.localPath;
    if (pastPathMax(c.abs(onDisk))) continue;
    if (row.state === 'online') {
      const wrong = placeholderMissing(c, row, refused);
      if (wrong) out.push(`${c.name}: online only, ${wrong}: ${row.localPath}`);
      continue;
    }
    const st = lstatSync(c.abs(row.localPath), { throwIfNoEntry: false });
    if (!st || st.isDirectory() !== (row.kind === 'folder')) {
      out.push(`${c.name}: journal row without its entry on disk: ${row.localPath}`);
    }
  }
  const open = c.pair!.journal.outbox.open();
  if (open.length > 0) out.push(`${c.name}: ${open.length} intents still open`);
  return out;
}

/** The history's base folder holds each client's folder and state, and nothing else. */
function outsideRoots(world: World): string[] {
  const out: string[] = [];
  const top = readdirSync(world.base).sort();
  if (top.join() !== 'A,B') out.push(`written outside the sync roots: ${top.join(', ')}`);
  for (const c of world.clients) {
    const home = path.dirname(c.dir);
    const inside = readdirSync(home).sort();
    if (inside.join() !== 'Workspace,state') {
      out.push(`written outside ${c.name}'s sync root: ${inside.join(', ')}`);
    }
  }
  return out;
}

/** Hashes of every file below a folder, whatever its name. */
function hashesIn(dir: string, into: Set<string>): void {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) hashesIn(p, into);
    else if (e.isFile()) into.add(sha(readFileSync(p)));
  }
}

/** Contents written and not deleted on purpose that are nowhere: not on the service, a disk, a trash. */
function lostContents(world: World): string[] {
  const found = new Set<string>();
  for (const e of world.remoteEntries()) if (e.blob) found.add(e.blob);
  for (const c of world.clients) {
    hashesIn(c.dir, found);
    hashesIn(path.join(c.state, 'trash'), found);
  }
  const out: string[] = [];
  for (const [hash, label] of world.ledger.mustSurvive()) {
    if (!found.has(hash)) out.push(`content ${label} is nowhere`);
  }
  return out;
}

/**
 * Files on the service whose bytes nobody wrote (every side's writes are the ledger's): a
 * placeholder's text sent as a file's content, or anything else the engine made up.
 */
function unwritten(world: World): string[] {
  return world
    .remoteEntries()
    .filter((e) => e.kind === 'file' && e.blob && world.ledger.labelOf(e.blob) === undefined)
    .map((e) => `on the service, bytes nobody wrote (a placeholder's text?): ${e.path}`);
}

const COPY_SUFFIX = / \(\d+\)(\.[^.]*)?$/;

/** The same content twice on the service, or a name that only a second attempt would make. */
function duplicates(world: World): string[] {
  const out: string[] = [];
  const where = new Map<string, string[]>();
  for (const e of world.remoteEntries()) {
    if (COPY_SUFFIX.test(e.name) && !world.chosenNames.has(serviceKey(e.name))) {
      out.push(`a numbered copy on the service: ${e.path}`);
    }
    if (e.kind !== 'file' || !e.blob) continue;
    where.set(e.blob, [...(where.get(e.blob) ?? []), e.path]);
  }
  for (const [hash, paths] of where) {
    if (paths.length > (world.twins.get(hash) ?? 1) && !keptByEach(world, paths)) {
      out.push(
        `content ${world.ledger.labelOf(hash) ?? hash.slice(0, 8)} twice: ${paths.join(', ')}`,
      );
    }
  }
  return out;
}

/** The path a conflict copy was made from (in any language: B names its copies in German). */
function beforeCopy(p: string): string {
  const slash = p.lastIndexOf('/');
  const original = conflictOriginal(p.slice(slash + 1));
  return original === undefined ? p : p.slice(0, slash + 1) + original;
}

/**
 * One content under names that different people gave it on their own disks: each client kept its
 * rename of a file that was deleted on the service meanwhile (a rename here wins over a delete
 * there), so each sent its copy. Two decisions, not a retry.
 */
function keptByEach(world: World, paths: string[]): boolean {
  // A kept rename whose name was taken there is kept as its conflict copy: its place is the name's.
  const by = paths.map((p) => {
    const places = [p, beforeCopy(p)];
    // Placed itself, or with a folder above it that a person moved there.
    const placedAt = (at: string): string | undefined => {
      for (let i = at.length; i > 0; i = at.lastIndexOf('/', i - 1)) {
        const by = world.placedBy.get(serviceKey(at.slice(0, i)));
        if (by) return by;
      }
      return undefined;
    };
    const placed = places.map(placedAt).find(Boolean);
    return (
      placed ??
      places
        .map((at) => world.namedBy.get(serviceKey(at.slice(at.lastIndexOf('/') + 1))))
        .find(Boolean)
    );
  });
  return by.every((c) => c !== undefined) && new Set(by).size === paths.length;
}

/**
 * Whether a hold of deletions on the service is one of the two cases docs/SYNC.md documents, by
 * the figures the guard saw when it tripped (the last hour's included).
 */
function heldAsDocumented(held: RemoteDeleteHold): boolean {
  const { count, total, topmost, places } = held.seen;
  if (count < 10) return false;
  const vanished = count >= total || (topmost >= 3 && total - count <= total * 0.1);
  const acrossTheTree = topmost >= 10 && places >= 3 && count / total > 0.5;
  return vanished || acrossTheTree;
}
