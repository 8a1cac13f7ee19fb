import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { ApiError } from '../../src/main/api/errors';
import { serviceKey } from '../../src/main/sync/names';
import { changeSelection } from '../../src/main/sync/loop/selection';
import type { RoleName } from '../../src/service/roles';
import { localTree, pastPathMax, sha } from '../sync/harness';
import { describeWork, didWork, MAX_ROUNDS } from './invariants';
import type { Ledger } from './ledger';
import type { CrashPlan, FaultWindow, RemoteEntry, SoakClient, World } from './world';
import type { OnDemandOp } from '../../src/main/engine';
import { PLACEHOLDER_SUFFIX } from '../../src/main/sync/placeholder';
import {
  contentBehind,
  contentsBehind,
  isPlaceholder,
  placeholderAt,
  placeholdersIn,
} from './placeholders';

/**
 * The operations of a history. Each names its targets by index into the sorted listing of the
 * moment (modulo its length), so that a history stays meaningful when shrinking removes steps.
 */
export type SoakCommand = fc.AsyncCommand<Ledger, World, false>;

class Step implements SoakCommand {
  constructor(
    private readonly label: string,
    private readonly op: (w: World) => Promise<void>,
  ) {}
  check(): boolean {
    return true;
  }
  async run(_model: Ledger, world: World): Promise<void> {
    world.figures.operations++;
    if (world.config.log) world.logLines.push(`step ${this.label}`);
    await this.op(world);
  }
  toString(): string {
    return this.label;
  }
}

/**
 * Names people use, and names that need care: case variants, both Unicode normal forms, names
 * Windows refuses (mapped on a win32 volume), a device name and a trailing dot. None has parentheses: those only come from conflict copies.
 */
const NAMES = [
  'Docs',
  'docs',
  'Photos',
  'Reports 2026',
  'Caf\u00e9',
  'Cafe\u0301',
  'a:b',
  'CON',
  'trail.',
  'notes.txt',
  'Notes.txt',
  'plan.md',
  'r\u00e9sum\u00e9.pdf',
  'q?.txt',
  'data.bin',
];

const WIN32_REFUSED = /[<>:"|?*\\]|[. ]$|^(?:CON|PRN|AUX|NUL|COM\d|LPT\d)(?:\.|$)/i;

/** Names that differ from another in NAMES only by case or normalization. */
const VARIANTS = new Set(['docs', 'Notes.txt', 'Cafe\u0301']);

/** The colleague working on the service (not a client here), as `placedBy` names them. */
const REMOTE = 'remote';

const client = fc.constantFrom<0 | 1>(0, 1);
const index = fc.nat(63);
/** The names the current histories draw from (set by `historyArbitrary` for its scope). */
let allowed = NAMES;
const name = fc.nat(NAMES.length - 1).map((i) => allowed[i % allowed.length]!);
const size = fc.oneof(fc.integer({ min: 24, max: 200 }), fc.integer({ min: 200, max: 6000 }));

const crashPlan: fc.Arbitrary<CrashPlan> = fc.record({
  step: fc.constantFrom('intent-written', 'answered', 'recorded'),
  op: fc.constantFrom('mkdir', 'upload', 'move', 'delete'),
  nth: fc.constantFrom(1, 1, 2, 3),
});

const faultWindow: fc.Arbitrary<FaultWindow> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('fail', 'lost', 'reset', 'expire'),
    level: fc.constantFrom(0.05, 0.15, 0.3),
    seed: fc.nat(1_000_000),
  }),
  fc.record({
    kind: fc.constant('latency'),
    level: fc.constantFrom(5, 20),
    seed: fc.nat(1_000_000),
  }),
  fc.record({
    kind: fc.constant('ratelimit'),
    level: fc.constantFrom(30, 100),
    seed: fc.nat(1_000_000),
  }),
) as fc.Arbitrary<FaultWindow>;

const pick = <T>(list: readonly T[], i: number): T | undefined =>
  list.length === 0 ? undefined : list[i % list.length];

/**
 * A step's target: an index into the listing of the moment (modulo its length), as the random
 * histories draw it, or, in a written history (histories.ts), the path it must be there.
 */
export type Target = number | string;

/** The target's index in the listing, by one of its paths; a written history's missing path throws. */
function indexOf<T>(list: readonly T[], t: Target, pathOf: (item: T) => string): number {
  if (typeof t === 'number') return t;
  const i = list.findIndex((item) => pathOf(item) === t);
  if (i < 0) {
    throw new Error(
      `history step: nothing at ${JSON.stringify(t)} (of ${list.map(pathOf).join(', ')})`,
    );
  }
  return i;
}
const onDisk = (list: readonly string[], t: Target) => indexOf(list, t, (p) => p);
const onService = (list: readonly { path: string }[], t: Target) => indexOf(list, t, (e) => e.path);
/** A target as a step's label shows it: `#3`, or `"Docs/a.txt"`. */
const shown = (t: Target) => (typeof t === 'number' ? `#${t}` : JSON.stringify(t));

const baseName = (rel: string) => rel.slice(rel.lastIndexOf('/') + 1);
const join = (parent: string, child: string) => (parent === '' ? child : `${parent}/${child}`);
const who = (c: SoakClient) => `disk ${c.name}`;

/** Whether a person could make this name in this folder on the client's volume. */
/** An editor's temporary file for a save of `file` (ignored: *.tmp), named apart from it. */
const saveTemp = (file: string, bytes: number) => join(parentOf(file), `save ${bytes}.tmp`);

function canName(c: SoakClient, parent: string, wanted: string, except?: string): boolean {
  if (c.profile.flavor === 'win32' && WIN32_REFUSED.test(wanted)) return false;
  // Past PATH_MAX the system refuses it (ENAMETOOLONG): a person cannot make it either (seed
  // 20261303 history 192: a long name at the bottom of a deep chain).
  if (pastPathMax(c.abs(join(parent, wanted)))) return false;
  const fold = (n: string) => {
    let out = c.profile.caseInsensitive ? n.toLowerCase() : n;
    if (c.profile.normalizationInsensitive) out = out.normalize('NFC');
    return out;
  };
  const { folders, files } = c.entries();
  return ![...folders, ...files].some(
    (rel) =>
      rel !== '' &&
      rel !== except &&
      parentOf(rel) === parent &&
      fold(baseName(rel)) === fold(wanted),
  );
}

const parentOf = (rel: string) => (rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '');

/**
 * Whether `rel` is, or is a folder holding, a placeholder of ours. A person's move or rename of
 * one is made between two syncs of that client (it knows the service's state, the move is sent
 * before anyone acts again), and on a server without moves only within its folder. The first
 * steered around a limit since fixed (a placeholder moved here while its item was deleted there
 * was uploaded as a file: now it goes, unsent; test/sync/on-demand.test.ts), kept so that the
 * fixed seed's histories stay as they were; the second is an open one: on a server without
 * moves a placeholder's move to another folder waits for ever.
 */
async function holdsPlaceholders(
  c: SoakClient,
  rel: string,
  files: readonly string[],
): Promise<boolean> {
  for (const f of files) {
    if ((f === rel || f.startsWith(rel + '/')) && (await isPlaceholder(c, f))) return true;
  }
  return false;
}

/** A person named and placed an item at `rel` here (a placeholder's: its file's real path). */
function placedHere(w: World, c: SoakClient, rel: string): void {
  const newName = baseName(rel);
  w.chosenNames.add(serviceKey(newName));
  w.namedBy.set(serviceKey(newName), c.name);
  w.placedBy.set(serviceKey(rel), c.name);
}

/** The files below (or at) a local path, for the ledger: deleting them there is on purpose. */
function hashesBelow(c: SoakClient, rel: string): string[] {
  const tree = localTree(c.dir);
  const out: string[] = [];
  for (const [p, v] of tree) if ((p === rel || p.startsWith(rel + '/')) && v !== 'dir') out.push(v);
  return out;
}

// Local operations: what a person does in the folder while the engine is not looking (the next
// sync's scan finds them, as a startup scan would).

export function localMkdirCommand(ci: 0 | 1, at: Target, n: string): SoakCommand {
  return new Step(`${'AB'[ci]}: mkdir ${shown(at)}/${JSON.stringify(n)}`, async (w) => {
    const c = w.clients[ci]!;
    const { folders } = c.entries();
    const parent = pick(folders, onDisk(folders, at))!;
    if (!canName(c, parent, n)) return;
    mkdirSync(c.abs(join(parent, n)));
  });
}
const localMkdir = fc.tuple(client, index, name).map(([ci, at, n]) => localMkdirCommand(ci, at, n));

export type WriteMode = 'new' | 'overwrite' | 'save-via-temp';

export function localWriteCommand(
  ci: 0 | 1,
  at: Target,
  n: string,
  bytes: number,
  mode: WriteMode,
): SoakCommand {
  return new Step(
    `${'AB'[ci]}: write ${mode} ${shown(at)} ${JSON.stringify(n)} ${bytes}B`,
    async (w) => {
      const c = w.clients[ci]!;
      const { folders, files } = c.entries();
      let target: string;
      if (mode === 'new') {
        const parent = pick(folders, onDisk(folders, at))!;
        if (!canName(c, parent, n)) return;
        target = join(parent, n);
        // A file at an online item's real name is its new version, by the person's hand.
        if (files.includes(target + PLACEHOLDER_SUFFIX)) {
          await c.open();
          const row = placeholderAt(c, target + PLACEHOLDER_SUFFIX);
          if (row) w.ledger.deleted(contentBehind(w, row));
        }
      } else {
        const file = pick(files, onDisk(files, at));
        if (file === undefined) return;
        // An editor's temporary file beside it may not fit where the file does.
        if (mode === 'save-via-temp' && pastPathMax(c.abs(saveTemp(file, bytes)))) return;
        target = file;
        w.ledger.deleted(w.hashOnDisk(c, file));
      }
      // As for the service's writes: a version a second after the last, or the API (whole
      // seconds, size and time only: conventions.md) cannot tell two versions of one size apart.
      if (mode !== 'new') w.sb.advanceClock(1);
      const data = w.ledger.write(who(c), bytes);
      if (mode === 'save-via-temp') {
        // An editor's save: a temporary file (ignored: *.tmp) renamed over the original.
        // Named apart from the file (whose name may be 255 bytes long already).
        const temp = c.abs(saveTemp(target, bytes));
        writeFileSync(temp, data);
        renameSync(temp, c.abs(target));
      } else writeFileSync(c.abs(target), data);
    },
  );
}
const localWrite = fc
  .tuple(client, index, name, size, fc.constantFrom<WriteMode>('new', 'overwrite', 'save-via-temp'))
  .map(([ci, at, n, bytes, mode]) => localWriteCommand(ci, at, n, bytes, mode));

export function localMoveCommand(
  ci: 0 | 1,
  from: Target,
  to: Target,
  n: string | null,
): SoakCommand {
  return new Step(
    `${'AB'[ci]}: move ${shown(from)} -> ${shown(to)}${n === null ? '' : '/' + JSON.stringify(n)}`,
    async (w) => {
      const c = w.clients[ci]!;
      const target = async () => {
        const { folders, files } = c.entries();
        const items = [...folders.slice(1), ...files];
        const src = pick(items, onDisk(items, from));
        const dest = pick(folders, onDisk(folders, to))!;
        if (src === undefined || dest === src || dest.startsWith(src + '/')) return undefined;
        // A placeholder renamed keeps its suffix (a person renames the file it stands for).
        const held = await isPlaceholder(c, src);
        const newName = n === null ? baseName(src) : held ? n + PLACEHOLDER_SUFFIX : n;
        if (join(dest, newName) === src || !canName(c, dest, newName, src)) return undefined;
        const online = await holdsPlaceholders(c, src, files);
        return { src, dest, held, newName, online };
      };
      let t = await target();
      if (t?.online) {
        if (!w.config.extensions && t.dest !== parentOf(t.src)) return;
        await c.sync();
        t = await target();
      }
      if (!t) return;
      renameSync(c.abs(t.src), c.abs(join(t.dest, t.newName)));
      const real = t.held ? t.newName.slice(0, -PLACEHOLDER_SUFFIX.length) : t.newName;
      placedHere(w, c, join(t.dest, real));
      if (t.online) await c.sync();
    },
  );
}
const localMove = fc
  .tuple(client, index, index, fc.option(name, { freq: 2 }))
  .map(([ci, from, to, n]) => localMoveCommand(ci, from, to, n));

export function localCaseRenameCommand(ci: 0 | 1, at: Target): SoakCommand {
  return new Step(`${'AB'[ci]}: case-rename ${shown(at)}`, async (w) => {
    const c = w.clients[ci]!;
    const { folders, files } = c.entries();
    const items = [...folders.slice(1), ...files];
    const src = pick(items, onDisk(items, at));
    if (src === undefined) return;
    const old = baseName(src);
    const flipped =
      old[0] === old[0]!.toUpperCase() ? old[0]!.toLowerCase() : old[0]!.toUpperCase();
    const renamed = flipped + old.slice(1);
    if (renamed === old || !canName(c, parentOf(src), renamed, src)) return;
    const held = await isPlaceholder(c, src);
    const online = await holdsPlaceholders(c, src, files);
    // Placeholders renamed: between two syncs (holdsPlaceholders).
    if (online) await c.sync();
    if (online && (!existsSync(c.abs(src)) || !canName(c, parentOf(src), renamed, src))) return;
    renameSync(c.abs(src), c.abs(join(parentOf(src), renamed)));
    placedHere(
      w,
      c,
      join(parentOf(src), held ? renamed.slice(0, -PLACEHOLDER_SUFFIX.length) : renamed),
    );
    if (online) await c.sync();
  });
}
const localCaseRename = fc.tuple(client, index).map(([ci, at]) => localCaseRenameCommand(ci, at));

export function localDeleteCommand(ci: 0 | 1, at: Target): SoakCommand {
  return new Step(`${'AB'[ci]}: delete ${shown(at)}`, async (w) => {
    const c = w.clients[ci]!;
    const { folders, files } = c.entries();
    const items = [...folders.slice(1), ...files];
    const src = pick(items, onDisk(items, at));
    if (src === undefined) return;
    for (const h of hashesBelow(c, src)) w.ledger.deleted(h);
    // A placeholder deleted is its file deleted, on purpose (the version it tells of).
    if (
      files.some((f) => (f === src || f.startsWith(src + '/')) && f.endsWith(PLACEHOLDER_SUFFIX))
    ) {
      await c.open();
      for (const h of contentsBehind(w, c, src)) w.ledger.deleted(h);
    }
    rmSync(c.abs(src), { recursive: true });
  });
}
const localDelete = fc.tuple(client, index).map(([ci, at]) => localDeleteCommand(ci, at));

// Remote operations: another user of the workspace, through the API.

/** A refused or impossible request is a person's failed action, not the engine's concern. */
async function attempt(work: () => Promise<unknown>): Promise<boolean> {
  try {
    await work();
    return true;
  } catch (err) {
    if (err instanceof ApiError) return false;
    throw err;
  }
}

const remoteFolders = (w: World) => [
  { id: w.rootId, path: '' },
  ...w.remoteEntries().filter((e) => e.kind === 'folder'),
];

export function remoteMkdirCommand(at: Target, n: string): SoakCommand {
  return new Step(`remote: mkdir ${shown(at)}/${JSON.stringify(n)}`, async (w) => {
    const folders = remoteFolders(w);
    const parent = pick(folders, onService(folders, at))!;
    await attempt(() => w.admin.createFolder(w.sb.workspaceId, parent.id, n));
  });
}
const remoteMkdir = fc.tuple(index, name).map(([at, n]) => remoteMkdirCommand(at, n));

export function remoteWriteCommand(
  at: Target,
  n: string,
  bytes: number,
  isNew: boolean,
): SoakCommand {
  return new Step(
    `remote: write ${isNew ? 'new' : 'overwrite'} ${shown(at)} ${JSON.stringify(n)} ${bytes}B`,
    async (w) => {
      const before = w.remoteEntries();
      let parentId: number;
      let fileName: string;
      if (isNew) {
        const folders = remoteFolders(w);
        const parent = pick(folders, onService(folders, at))!;
        parentId = parent.id;
        fileName = n;
      } else {
        const files = before.filter((e) => e.kind === 'file');
        const file = pick(files, onService(files, at));
        if (!file) return;
        parentId = file.parentId;
        fileName = file.name;
      }
      // A second after anything before it: versions of one file differ by size or time, and the
      // API's times have whole seconds (conventions.md).
      w.sb.advanceClock(1);
      const data = w.ledger.write('service', bytes);
      let answer: { id: number } | undefined;
      const ok = await attempt(async () => {
        answer = await w.admin.uploadFile(
          parentId,
          fileName,
          () => Readable.from([data]),
          data.length,
        );
      });
      if (!ok) {
        w.ledger.deleted(sha(data));
        return;
      }
      // A new version of a file that was there replaces its content, on purpose.
      w.ledger.deleted(before.find((e) => e.id === answer!.id)?.blob ?? undefined);
    },
  );
}
const remoteWrite = fc
  .tuple(index, name, size, fc.boolean())
  .map(([at, n, bytes, isNew]) => remoteWriteCommand(at, n, bytes, isNew));

export function remoteMoveCommand(from: Target, to: Target, n: string | null): SoakCommand {
  return new Step(
    `remote: move ${shown(from)} -> ${shown(to)}${n === null ? '' : '/' + JSON.stringify(n)}`,
    async (w) => {
      const entries = w.remoteEntries();
      const src = pick(entries, onService(entries, from));
      if (!src) return;
      const folders = remoteFolders(w);
      const dest = pick(folders, onService(folders, to))!;
      if (dest.id === src.id || dest.path.startsWith(src.path + '/')) return;
      if (dest.id === src.parentId || !w.config.extensions) {
        // A rename in place (without the extension there is no other way to move).
        if (n === null || n === src.name) return;
        const ok = await attempt(() =>
          src.kind === 'folder' ? w.admin.renameFolder(src.id, n) : w.admin.renameFile(src.id, n),
        );
        if (ok) w.placedBy.set(serviceKey(join(parentOf(src.path), n)), REMOTE);
        return;
      }
      const ok = await attempt(() =>
        src.kind === 'folder'
          ? w.moves.moveFolder(src.id, dest.id, n ?? undefined)
          : w.moves.moveFile(src.id, dest.id, n ?? undefined),
      );
      if (ok) w.placedBy.set(serviceKey(join(dest.path, n ?? src.name)), REMOTE);
    },
  );
}
const remoteMove = fc
  .tuple(index, index, fc.option(name, { freq: 2 }))
  .map(([from, to, n]) => remoteMoveCommand(from, to, n));

export function remoteDeleteCommand(at: Target): SoakCommand {
  return new Step(`remote: delete ${shown(at)}`, async (w) => {
    const entries = w.remoteEntries();
    const src = pick(entries, onService(entries, at));
    if (!src) return;
    const blobs = w.remoteSubtreeBlobs(src);
    const ok = await attempt(() =>
      src.kind === 'folder' ? w.admin.deleteFolder(src.id) : w.admin.deleteFile(src.id),
    );
    if (ok) for (const b of blobs) w.ledger.deleted(b);
  });
}
const remoteDelete = index.map(remoteDeleteCommand);

/**
 * A burst: another user's hundreds of changes within one second (a colleague's bulk upload),
 * fired a few at a time through the API while the sandbox's clock is held. `ops` operations in all: `targets` folders to fill
 * (the first the folder picked by `at` itself when `existing`, the others new folders made in
 * it), subfolders made in them and small files uploaded into both, and `touch` renames or
 * deletes of items that were there before. Every name carries the bulk's number, so none meets
 * a sibling's name in any case; the burst's own requests only go to folders it made or picked.
 */
export interface BulkSpec {
  ops: number;
  at: number;
  targets: number;
  existing: boolean;
  touch: number;
}

/** Requests of a bulk in flight at once. */
const BULK_POOL = 8;

/** Runs the tasks, at most `width` at a time, in their order. */
async function pool(width: number, tasks: (() => Promise<unknown>)[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, worker));
}

export function bulkCommand(spec: BulkSpec): SoakCommand {
  const { ops, at, targets, existing, touch } = spec;
  return new Step(
    `remote: bulk ${ops} ops #${at} into ${targets}${existing ? ' (the first there)' : ''}` +
      (touch > 0 ? ` touching ${touch}` : ''),
    async (w) => {
      const n = ++w.bulks;
      const base = pick(remoteFolders(w), at)!;
      const taken = new Set(
        w
          .remoteEntries()
          .filter((e) => e.parentId === base.id)
          .map((e) => serviceKey(e.name)),
      );
      // A second after anything before it (versions differ by size or time: conventions.md),
      // and all of it within that second, however fast this machine: the clock stands still.
      w.sb.advanceClock(1);
      const clock = w.sb.sandbox.clock;
      clock.hold();
      try {
        await burst(w, n, base, taken, spec);
      } finally {
        clock.release();
      }
    },
  );
}

/** The requests of bulk `n`, fired at most BULK_POOL at a time; the ledger kept in step. */
async function burst(
  w: World,
  n: number,
  base: { id: number; path: string },
  taken: ReadonlySet<string>,
  { ops, at, targets, existing, touch }: BulkSpec,
): Promise<void> {
  const before = w.remoteEntries();
  const started = Date.now();
  let requests = 0;
  const counted = <T>(work: () => Promise<T>) => {
    requests++;
    return attempt(work);
  };

  // The folders to fill; the new ones are the first requests of the burst.
  const fill: number[] = existing ? [base.id] : [];
  for (let i = fill.length; i < targets; i++) {
    const folderName = `bulk ${n}${'abc'[i]}`;
    if (taken.has(serviceKey(folderName))) continue;
    await counted(async () => {
      fill.push((await w.admin.createFolder(w.sb.workspaceId, base.id, folderName)).id);
    });
  }
  if (fill.length === 0) return;

  // Renames and deletes of what was there, outside the folder the burst fills.
  const outside = before.filter((e) => e.path !== base.path && !base.path.startsWith(e.path + '/'));
  const touches: (() => Promise<unknown>)[] = [];
  for (let i = 0; i < Math.min(touch, outside.length); i++) {
    const src = pick(outside, at + i * 7)!;
    if (i % 2 === 0) {
      const blobs = w.remoteSubtreeBlobs(src);
      touches.push(async () => {
        const ok = await counted(() =>
          src.kind === 'folder' ? w.admin.deleteFolder(src.id) : w.admin.deleteFile(src.id),
        );
        if (ok) for (const b of blobs) w.ledger.deleted(b);
      });
    } else {
      const renamed = `bulk ${n} r${i}${/\.[a-z]+$/.exec(src.name)?.[0] ?? ''}`;
      touches.push(async () => {
        const ok = await counted(() =>
          src.kind === 'folder'
            ? w.admin.renameFolder(src.id, renamed)
            : w.admin.renameFile(src.id, renamed),
        );
        if (ok) w.placedBy.set(serviceKey(join(parentOf(src.path), renamed)), REMOTE);
      });
    }
  }

  // Subfolders first in the queue, so a file waiting for its folder waits for a request
  // already on its way; then the files, spread over the folders and subfolders.
  const budget = Math.max(0, ops - requests - touches.length);
  const subCount = Math.max(1, Math.floor(budget / 10));
  const made = new Map<number, Promise<number | null>>();
  const subTasks: (() => Promise<unknown>)[] = [];
  for (let j = 0; j < subCount; j++) {
    const parentId = fill[j % fill.length]!;
    let resolve!: (id: number | null) => void;
    made.set(j, new Promise((r) => (resolve = r)));
    subTasks.push(async () => {
      let id: number | null = null;
      await counted(async () => {
        id = (await w.admin.createFolder(w.sb.workspaceId, parentId, `b${n} d${j}`)).id;
      });
      resolve(id);
    });
  }
  const fileTasks: (() => Promise<unknown>)[] = [];
  for (let j = 0; j < budget - subCount; j++) {
    const slot = j % (subCount + fill.length);
    // Each file's bytes are written to the ledger now, in order: a replay writes the same.
    const data = w.ledger.write('service', 24 + ((j * 37) % 177));
    fileTasks.push(async () => {
      const parentId = slot < subCount ? await made.get(slot)! : fill[slot - subCount]!;
      let answer: { id: number } | undefined;
      const ok =
        parentId !== null &&
        (await counted(async () => {
          answer = await w.admin.uploadFile(
            parentId,
            `b${n} f${j}.txt`,
            () => Readable.from([data]),
            data.length,
          );
        }));
      if (!ok) w.ledger.deleted(sha(data));
      // Never a file that was there (the names are the bulk's own); if it were, on purpose.
      else w.ledger.deleted(before.find((e) => e.id === answer!.id)?.blob ?? undefined);
    });
  }
  await pool(BULK_POOL, [...subTasks, ...touches, ...fileTasks]);
  if (w.config.log) {
    w.logLines.push(`bulk ${n}: ${requests} requests in ${Date.now() - started} ms`);
  }
}

const remoteBulk = fc
  .record({
    ops: fc.integer({ min: 100, max: 400 }),
    at: index,
    targets: fc.integer({ min: 1, max: 3 }),
    existing: fc.boolean(),
    touch: fc.nat(3),
  })
  .map(bulkCommand);

export function roleCommand(ci: 0 | 1, role: RoleName | 'restore'): SoakCommand {
  return new Step(`remote: ${'AB'[ci]}'s role -> ${role}`, async (w) => {
    await w.setRole(w.clients[ci]!, role === 'restore' ? null : role);
  });
}
const roleChange = fc
  .tuple(
    client,
    fc.constantFrom<RoleName | 'restore'>('Creator', 'Downloader', 'Viewer', 'restore'),
  )
  .map(([ci, role]) => roleCommand(ci, role));

// Issue 37's cases: swaps and rotations here, long names, a path too deep for this disk.

/**
 * How files change places here: `rotate` renames them round (two: a swap; three: a rotation);
 * `same` first makes them one content with one mtime and syncs, then rotates (identity then only
 * tells them apart by inode); `recreate` deletes them and writes each anew with the next one's
 * content and mtime (new inodes: a delete-and-recreate crosswise).
 */
export type SwapMode = 'rotate' | 'same' | 'recreate';

/**
 * The first `count` files (2 or 3, sorted) of the folder picked by `at` trade places: each takes
 * the next one's name, the last the first's. Nothing is lost: every content is still here.
 */
export function localSwapCommand(
  ci: 0 | 1,
  at: Target,
  count: 2 | 3,
  mode: SwapMode,
  /**
   * `recreate` of 2: the journal's inodes set as a volume that gave the first file the
   * second's freed inode and the second a new one (or the first's: `crosswise`) would leave
   * them (whatever this one did).
   */
  reuse: 'volume' | 'one-crosswise' | 'crosswise' = 'volume',
): SoakCommand {
  const how = reuse === 'volume' ? '' : ` (${reuse})`;
  return new Step(`${'AB'[ci]}: ${mode} ${count} files in ${shown(at)}${how}`, async (w) => {
    const c = w.clients[ci]!;
    const { folders, files } = c.entries();
    const folder = pick(folders, onDisk(folders, at))!;
    const names = files.filter((f) => parentOf(f) === folder).slice(0, count);
    if (names.length < count) return;
    if (mode === 'same') {
      // One content, one mtime: copies of one file, synced before they are moved.
      w.sb.advanceClock(1);
      const data = w.ledger.write(who(c), 300);
      w.twins.set(sha(data), count);
      const when = new Date(Math.floor(Date.now() / 1000) * 1000);
      for (const f of names) {
        w.ledger.deleted(w.hashOnDisk(c, f));
        writeFileSync(c.abs(f), data);
        utimesSync(c.abs(f), when, when);
      }
      await c.sync();
      // The sync may have moved one away (a colleague's rename of it, a conflict copy): the
      // rotation is of what is here now (seed 744671885, history 800: `Docs` became `docs`).
      if (names.some((f) => !existsSync(c.abs(f)))) return;
    }
    if (mode === 'recreate') {
      const kept = names.map((f) => ({
        data: readFileSync(c.abs(f)),
        mtime: lstatSync(c.abs(f)).mtime,
      }));
      for (const f of names) rmSync(c.abs(f));
      names.forEach((f, i) => {
        const from = kept[(i + 1) % count]!;
        writeFileSync(c.abs(f), from.data);
        utimesSync(c.abs(f), from.mtime, from.mtime);
        // Each content is at another name by this person's hand, as by a rename.
        w.placedBy.set(serviceKey(f), c.name);
      });
      if (reuse !== 'volume') {
        const { journal } = await c.open();
        const [first, second] = names.map((f) => journal.items.atPath(f));
        if (!first || !second) throw new Error(`${names.join(', ')}: not synced`);
        journal.items.upsert({ ...second, ino: lstatSync(c.abs(names[0]!)).ino });
        // `one-crosswise`: an inode nothing on this disk has, the one the first file left.
        const firstIno = reuse === 'crosswise' ? lstatSync(c.abs(names[1]!)).ino : 2 ** 40 + 7;
        journal.items.upsert({ ...first, ino: firstIno });
      }
      return;
    }
    // Round through a free name: a -> tmp, b -> a, (c -> b,) tmp -> last.
    const free = join(folder, `swap ${++w.bulks}.part`);
    renameSync(c.abs(names[0]!), c.abs(free));
    for (let i = 1; i < count; i++) renameSync(c.abs(names[i]!), c.abs(names[i - 1]!));
    renameSync(c.abs(free), c.abs(names[count - 1]!));
    for (const f of names) w.placedBy.set(serviceKey(f), c.name);
  });
}
const localSwap = fc
  .tuple(client, index, fc.constantFrom<2 | 3>(2, 3), fc.constantFrom<SwapMode>('rotate', 'same'))
  .map(([ci, at, count, mode]) => localSwapCommand(ci, at, count, mode));
const localRecreate = fc
  .tuple(client, index, fc.constantFrom<2 | 3>(2, 2, 3))
  .map(([ci, at, count]) => localSwapCommand(ci, at, count, 'recreate'));

/**
 * Names of 200 to 255 UTF-8 bytes, one and several bytes a character: a conflict copy's suffix
 * takes any of them past 255, so the copy's name must be shortened.
 */
export const LONG_NAMES = [
  `${'Quarterly report on the long-term planning of the northern region '.repeat(3).trim()}.txt`,
  `${'Minutes of the steering committee meeting on the budget '.repeat(5).slice(0, 247)}.txt`,
  `${'Übersicht'.repeat(22)}.md`,
  `${'議事録と資料'.repeat(14)}.md`,
  `${'📁 Ablage '.repeat(19).trim()}`,
];
const longName = fc.constantFrom(...LONG_NAMES);

/** A long name made here or on the service: a file (new) or a folder. */
const longNames = fc.oneof(
  fc
    .tuple(client, index, longName, size)
    .map(([ci, at, n, bytes]) => localWriteCommand(ci, at, n, bytes, 'new')),
  fc.tuple(index, longName, size).map(([at, n, bytes]) => remoteWriteCommand(at, n, bytes, true)),
  fc.tuple(client, index, longName).map(([ci, at, n]) => localMkdirCommand(ci, at, n)),
  fc.tuple(index, longName).map(([at, n]) => remoteMkdirCommand(at, n)),
);

/** Levels of the deep chain, and the UTF-8 bytes of each level's name. */
export const DEEP_LEVELS = 40;
export const DEEP_NAME_BYTES = 120;

/**
 * Another user makes a chain of DEEP_LEVELS folders of DEEP_NAME_BYTES-byte names below the folder
 * picked by `at`, with a file at the bottom: its local path passes PATH_MAX (4,096 bytes). That
 * subtree is a problem on the clients (invariants.ts); everything else must converge.
 */
export function remoteDeepCommand(at: Target): SoakCommand {
  return new Step(
    `remote: deep chain ${DEEP_LEVELS}x${DEEP_NAME_BYTES}B in ${shown(at)}`,
    async (w) => {
      const folders = remoteFolders(w);
      let parent = pick(folders, onService(folders, at))!.id;
      const n = ++w.bulks;
      for (let level = 1; level <= DEEP_LEVELS; level++) {
        const head = `deep ${n} level ${level} `;
        const folderName = head + 'd'.repeat(DEEP_NAME_BYTES - head.length);
        let made: number | null = null;
        await attempt(async () => {
          made = (await w.admin.createFolder(w.sb.workspaceId, parent, folderName)).id;
        });
        if (made === null) return;
        parent = made;
      }
      w.sb.advanceClock(1);
      const data = w.ledger.write('service', 100);
      const ok = await attempt(() =>
        w.admin.uploadFile(parent, 'bottom.txt', () => Readable.from([data]), data.length),
      );
      if (!ok) w.ledger.deleted(sha(data));
    },
  );
}
const remoteDeep = index.map(remoteDeepCommand);

/**
 * The weights of issue 37's steps among themselves (0 leaves a step out; all 0, none is drawn).
 * Together they take one entry of the history's commands, as a burst does.
 */
export interface NewStepWeights {
  swap: number;
  recreate: number;
  long: number;
  deep: number;
  /** Issue 41's files-on-demand steps: this many entries of their own (not shared). */
  ondemand: number;
}
export const DEFAULT_NEW_STEP_WEIGHTS: NewStepWeights = {
  swap: 2,
  recreate: 1,
  long: 2,
  deep: 1,
  ondemand: 4,
};

/** `swap=2,deep=0`: the weights named, the others as by default; null when it cannot be read. */
export function parseWeights(text: string): NewStepWeights | null {
  const out = { ...DEFAULT_NEW_STEP_WEIGHTS };
  for (const part of text.split(',').filter((x) => x !== '')) {
    const m = /^(swap|recreate|long|deep|ondemand)=(\d+)$/.exec(part.trim());
    if (!m) return null;
    out[m[1] as keyof NewStepWeights] = Number(m[2]);
  }
  return out;
}

function newSteps(weights: NewStepWeights): fc.Arbitrary<SoakCommand>[] {
  const drawn = [
    { arbitrary: localSwap, weight: weights.swap },
    { arbitrary: localRecreate, weight: weights.recreate },
    { arbitrary: longNames, weight: weights.long },
    { arbitrary: remoteDeep, weight: weights.deep },
  ].filter((x) => x.weight > 0);
  return drawn.length === 0 ? [] : [fc.oneof(...drawn)];
}

// The engine: one sync of one client, maybe killed at an outbox step, maybe under a fault window.

export function syncCommand(
  ci: 0 | 1,
  crash: CrashPlan | null = null,
  faults: FaultWindow | null = null,
): SoakCommand {
  return new Step(
    `${'AB'[ci]}: sync` +
      (crash ? ` crash@${crash.op}:${crash.step}#${crash.nth}` : '') +
      (faults ? ` faults ${faults.kind}=${faults.level} seed=${faults.seed}` : ''),
    async (w) => {
      const c = w.clients[ci]!;
      await w.withFaults(faults, () => c.sync(crash));
    },
  );
}
const sync = fc
  .tuple(client, fc.option(crashPlan, { freq: 3 }), fc.option(faultWindow, { freq: 2 }))
  .map(([ci, crash, faults]) => syncCommand(ci, crash, faults));

// Selective sync: a client leaves a folder of the service out, or takes every folder back.

/** The service's items at or below a folder, by id: their content (a folder's is ''). */
function subtreeOf(entries: readonly RemoteEntry[], folderId: number): Map<number, string> {
  const out = new Map<number, string>([[folderId, '']]);
  // Parents before children (remoteEntries' order): one sweep finds the subtree.
  for (const e of entries) if (out.has(e.parentId)) out.set(e.id, e.blob ?? '');
  return out;
}

/**
 * A client leaves out a folder of the service (`at`, by index into its folders) and syncs at
 * once, alone: that sync may not change anything on the service at or below the folder (leaving
 * out is never a delete there; what it holds here is trashed or kept). `at` null: the client
 * takes every folder back (its next sync walks and brings them down). The selection is restored
 * at quiescence, as roles are.
 */
export function selectionCommand(ci: 0 | 1, at: Target | null): SoakCommand {
  const label = at === null ? 'sync every folder again' : `leave out ${shown(at)}`;
  return new Step(`${'AB'[ci]}: ${label}`, async (w) => {
    const c = w.clients[ci]!;
    const { journal } = await c.open();
    if (at === null) {
      changeSelection(journal, { include: [...journal.selection.ids()] });
      return;
    }
    const folders = w.remoteEntries().filter((e) => e.kind === 'folder');
    const folder = pick(folders, onService(folders, at));
    if (!folder) return;
    changeSelection(journal, {
      exclude: [{ id: folder.id, parentId: folder.parentId, name: folder.name }],
    });
    w.figures.selections++;
    const before = subtreeOf(w.remoteEntries(), folder.id);
    const existed = new Set(w.remoteEntries().map((e) => e.id));
    const result = await c.sync();
    // Anywhere on the service: a move out sent now was made here before it was left out.
    const entries = w.remoteEntries();
    const now = new Map(entries.map((e) => [e.id, e.blob ?? '']));
    // On a server without moves such a move is a copy made outside and the old item retired
    // (up/plan.ts): gone from the folder, its copy outside (a file's bytes; a folder made by this
    // sync, under the new name the move may have given it).
    const outside = entries.filter((e) => !before.has(e.id));
    const copied = (id: number, blob: string) =>
      !w.config.extensions &&
      !now.has(id) &&
      outside.some((e) =>
        blob === '' ? e.kind === 'folder' && !existed.has(e.id) : e.blob === blob,
      );
    const wrong = [...before]
      .filter(([id, blob]) => now.get(id) !== blob && !copied(id, blob))
      .map(([id]) => `${id} ${now.has(id) ? 'changed' : 'deleted'}`);
    if (wrong.length > 0) {
      w.broken.push(
        `${c.name} left out "${folder.path}" and its sync changed the service there: ${wrong.join(', ')}` +
          (result instanceof Error ? ` (the sync failed: ${result.message})` : ''),
      );
    }
  });
}
const selection = fc
  .tuple(client, fc.option(index, { freq: 3 }))
  .map(([ci, at]) => selectionCommand(ci, at));

// Files on demand (issue 41): the pair's setting, a person's download / free / pin / unpin (as
// the CLI's `files` does: the action, then one pass), and what a person does to a placeholder.

/** The pair's setting for new files: online only (placeholders) or in full, from now on. */
export function onDemandModeCommand(ci: 0 | 1, mode: 'online' | 'full'): SoakCommand {
  return new Step(`${'AB'[ci]}: new files ${mode}`, async (w) => {
    const { journal } = await w.clients[ci]!.open();
    journal.onDemand.setMode(mode);
  });
}
const onDemandMode = fc
  .tuple(client, fc.constantFrom<'online' | 'full'>('online', 'online', 'full'))
  .map(([ci, mode]) => onDemandModeCommand(ci, mode));

/**
 * `files OP PATH` on a folder or file here (a placeholder's path names its file; the top folder
 * too, a refusal for all but a pin), then one pass, as the CLI runs it. A refusal is the
 * person's failed action. Freeing may never lose what was not sent: every content below the
 * path that must survive is still here or on the service after that pass, not only in the trash.
 */
export function filesCommand(ci: 0 | 1, op: OnDemandOp, at: Target): SoakCommand {
  return new Step(`${'AB'[ci]}: files ${op} ${shown(at)}`, async (w) => {
    const c = w.clients[ci]!;
    const { folders, files } = c.entries();
    // Mostly a file (a deep chain's folders would outnumber them); every third a folder.
    const items =
      typeof at === 'string'
        ? [...folders, ...files]
        : at % 3 === 0 || files.length === 0
          ? folders
          : files;
    const rel = pick(items, onDisk(items, at))!;
    const must = w.ledger.mustSurvive();
    const held = op === 'free' ? hashesBelow(c, rel).filter((h) => must.has(h)) : [];
    const pair = await c.open();
    w.figures.onDemand++;
    await pair.engine.filesOnDemand(op, [rel]).catch(() => undefined);
    await c.sync();
    if (held.length === 0) return;
    const found = new Set(w.remoteEntries().map((e) => e.blob));
    for (const h of localTree(c.dir).values()) found.add(h);
    for (const h of held) {
      if (!found.has(h)) {
        w.lostNow.push(`content ${must.get(h)} freed at ${rel}: not here, not on the service`);
      }
    }
  });
}
const files = fc
  .tuple(client, fc.constantFrom<OnDemandOp>('free', 'free', 'download', 'pin', 'unpin'), index)
  .map(([ci, op, at]) => filesCommand(ci, op, at));

export type PlaceholderAct = 'move' | 'delete' | 'write';

/**
 * A person and a placeholder of ours (picked among them by `at`; with none here, the file `at`
 * picks is freed first): renames or moves it (keeping its suffix: the file it stands for
 * moves), deletes it (the file, on purpose), or writes content into it by mistake (which must
 * be kept, as a file of its own, and sent).
 */
export function placeholderCommand(
  ci: 0 | 1,
  act: PlaceholderAct,
  at: Target,
  to: Target = 0,
  n: string | null = null,
  bytes = 100,
): SoakCommand {
  const what =
    act === 'move'
      ? `move -> ${shown(to)}${n === null ? '' : '/' + JSON.stringify(n)}`
      : act === 'write'
        ? `write ${bytes}B`
        : 'delete';
  return new Step(`${'AB'[ci]}: placeholder ${shown(at)} ${what}`, async (w) => {
    const c = w.clients[ci]!;
    const pair = await c.open();
    let { folders, files } = c.entries();
    let here = placeholdersIn(c, files);
    if (here.length === 0 && typeof at === 'number' && files.length > 0) {
      // None here: the person frees the file picked first (then one pass), as with `files free`.
      w.figures.onDemand++;
      await pair.engine.filesOnDemand('free', [pick(files, at)!]).catch(() => undefined);
      await c.sync();
      ({ folders, files } = c.entries());
      here = placeholdersIn(c, files);
    }
    const p = pick(
      here,
      indexOf(here, at, (x) => x.rel),
    );
    if (!p) return;
    if (act === 'delete') {
      w.ledger.deleted(contentBehind(w, p.row));
      rmSync(c.abs(p.rel));
    } else if (act === 'write') {
      writeFileSync(c.abs(p.rel), w.ledger.write(who(c), bytes));
    } else {
      // Between two syncs, within its folder on a server without moves (holdsPlaceholders).
      await c.sync();
      ({ folders, files } = c.entries());
      const dest = pick(folders, onDisk(folders, to))!;
      const real = n ?? baseName(p.rel).slice(0, -PLACEHOLDER_SUFFIX.length);
      const newName = real + PLACEHOLDER_SUFFIX;
      if (!w.config.extensions && dest !== parentOf(p.rel)) return;
      if (!(await isPlaceholder(c, p.rel))) return;
      if (join(dest, newName) === p.rel || !canName(c, dest, newName, p.rel)) return;
      renameSync(c.abs(p.rel), c.abs(join(dest, newName)));
      placedHere(w, c, join(dest, real));
      await c.sync();
    }
    w.figures.placeholders++;
  });
}
const placeholderAct = fc
  .tuple(
    client,
    fc.constantFrom<PlaceholderAct>('move', 'move', 'delete', 'write'),
    index,
    index,
    fc.option(name, { freq: 2 }),
    size,
  )
  .map(([ci, act, at, to, n, bytes]) => placeholderCommand(ci, act, at, to, n, bytes));

/** Issue 41's steps: `weight` entries of the history's commands (0 leaves them out). */
function onDemandSteps(weight: number): fc.Arbitrary<SoakCommand>[] {
  const one = fc.oneof(
    { arbitrary: onDemandMode, weight: 1 },
    { arbitrary: files, weight: 3 },
    { arbitrary: placeholderAct, weight: 2 },
  );
  return Array.from({ length: weight }, () => one);
}

/**
 * What one idle `syncOnce` may ask of the service when its last full walk is recent: one page of
 * the event feed (loop/engine-loop.ts: `prepare` has the root's id, `resolveOpenIntents` finds
 * none open, the remote pass polls the feed, the local pass scans the disk without a request).
 */
const IDLE_REQUESTS = 1;
const FEED_ROUTE = 'GET /activity';

/**
 * A client left alone: it syncs until a sync finds nothing to do (or the step ends, when it cannot
 * get there), then syncs `times` more with nothing changed anywhere. Each of those must make at
 * most one request, a single page of the feed, however much happened before: a burst read once
 * is never read again. A sync that starts with a full walk (the safety net due, or one asked for)
 * may cost a walk, and is not counted.
 */
export function quietCommand(ci: 0 | 1, times: number): SoakCommand {
  return new Step(`${'AB'[ci]}: quiet ${times} syncs`, async (w) => {
    const c = w.clients[ci]!;
    let settled = false;
    for (let round = 0; round < MAX_ROUNDS && !settled; round++) {
      const result = await c.sync();
      settled = !(result instanceof Error) && !didWork(result);
    }
    if (!settled) return;
    for (let i = 1; i <= times; i++) {
      const walks = c.walkDue();
      const { result, made } = await w.requestsDuring(() => c.sync());
      if (walks || result instanceof Error) continue;
      const total = [...made.values()].reduce((a, b) => a + b, 0);
      if (total <= IDLE_REQUESTS && (made.get(FEED_ROUTE) ?? 0) <= 1) continue;
      const routes = [...made]
        .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
        .map(([route, count]) => `${route} ${count}`)
        .join(', ');
      const work = didWork(result) ? ` (and it did work: ${describeWork(result)})` : '';
      w.broken.push(
        `idle sync ${i} of ${times} of ${c.name} made ${total} requests, at most ${IDLE_REQUESTS} expected: ${routes}${work}`,
      );
    }
  });
}

const quiet = fc
  .tuple(client, fc.integer({ min: 3, max: 5 }))
  .map(([ci, times]) => quietCommand(ci, times));

export function timePassesCommand(ci: 0 | 1): SoakCommand {
  return new Step(`${'AB'[ci]}: ten minutes pass`, async (w) => {
    w.clients[ci]!.tenMinutesPass();
  });
}
const timePasses = client.map(timePassesCommand);

/**
 * Not drawn: the service's clock moves on a second, so that what a client changes next has a
 * new `updated_at` (a rename's too), as when a person acts a moment after the last sync.
 */
export function serviceSecondPassesCommand(): SoakCommand {
  return new Step('service: a second passes', async (w) => {
    w.sb.advanceClock(1);
  });
}

/**
 * Not drawn by the random histories: a written history's own assertion (a regression's, that the
 * invariants would not see), run where it stands; what it returns is broken (a divergence).
 */
export function checkCommand(
  label: string,
  check: (w: World) => string[] | Promise<string[]>,
): SoakCommand {
  return new Step(`check: ${label}`, async (w) => {
    w.broken.push(...(await check(w)).map((m) => `${label}: ${m}`));
  });
}

/**
 * 'all', or 'case-sensitive': no names that differ only by case or normalization and no
 * case-only renames, client B on a Linux volume (what CI runs while the cases the soak found
 * there are open).
 */
/**
 * `all`: every name and operation, B on a Linux volume or with Windows' name rules; `case-sensitive`:
 * no case or normalization variants; `emulated`: `all`, and B also with a case-insensitive
 * (Windows, macOS) profile emulated on this case-sensitive disk.
 */
export type SoakScope = 'all' | 'case-sensitive' | 'emulated';

/** A history: the operations above, syncs weighted so that most changes meet the engine. */
export function historyArbitrary(
  maxCommands: number,
  replayPath?: string,
  scope: SoakScope = 'all',
  weights: NewStepWeights = DEFAULT_NEW_STEP_WEIGHTS,
): fc.Arbitrary<Iterable<SoakCommand>> {
  allowed = NAMES.filter((n) => scope !== 'case-sensitive' || !VARIANTS.has(n));
  return fc.commands(
    [
      localMkdir,
      localWrite,
      localWrite,
      localMove,
      ...(scope !== 'case-sensitive' ? [localCaseRename] : []),
      localDelete,
      remoteMkdir,
      remoteWrite,
      remoteMove,
      remoteDelete,
      roleChange,
      timePasses,
      selection,
      // A burst costs the whole history (hundreds of items for every later step to sync and
      // scan): a third of one entry. A quiet step is cheap: the rest of that entry and one more.
      fc.oneof({ arbitrary: remoteBulk, weight: 1 }, { arbitrary: quiet, weight: 2 }),
      quiet,
      // Issue 37's cases (swaps, long names, a deep path), by weight: one entry for them all.
      ...newSteps(weights),
      ...onDemandSteps(weights.ondemand),
      sync,
      sync,
      sync,
      sync,
    ],
    { maxCommands, size: 'max', ...(replayPath ? { replayPath } : {}) },
  );
}
