// Long because every write of the down side (folders, moves, the trash, downloads, archives)
// goes through the same checks of the disk before it touches it (unsynced local work is never
// overwritten): one class, so that no job skips them.
import { englishOf, type Words } from '../../../shared/i18n';
import { mkdirSync, readdirSync, rmSync, rmdirSync, utimesSync } from 'node:fs';
import path from 'node:path';
import pLimit from 'p-limit';
import type { ServiceClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { Journal, JournalItem } from '../../journal/journal';
import {
  emptySummary,
  type ProblemReason,
  type SyncProblem,
  type SyncSummary,
} from '../../../shared/sync-status';
import { downloadArchive, extractArchive, ZipMemory, type Zip } from './archive';
import { SwapError, swapped } from '../confined';
import { CutShortError, fetchToTemp, VerificationError, type Fetched } from '../download';
import { factsOf, hashFile, type LocalRoot } from '../local';
import { isItemError, itemErrorWords } from '../local-error';
import { defaultProfile, disambiguate } from '../names';
import { MOVING_DIR, PARTIAL_DIR, joinPath, parentOf } from '../paths';
import type { ArchiveJob, LazyArchive, Placement, Plan, StructureOp } from './plan-types';
import type { Logger, Trash } from '../ports';
import { remoteFields } from '../remote';
import { holdsAny, unplacedPaths } from '../unplaced';

/** What the executor tells the status model as it goes. */
export interface ExecutionEvents {
  /** A step begins; `files` for an archive (op 'archive', `path` its folder). */
  begin(op: string, path: string, files?: number): void;
  done(): void;
  bytes(n: number): void;
  problem(p: Omit<SyncProblem, 'at'>): void;
  solved(remoteId: number): void;
  /** A folder placed at last (a chain moved up so that it fits): its not-placed problem is over. */
  placed(remoteId: number): void;
  /**
   * A conflict and what was done about it, for the status; `copy` where the local version was
   * kept beside the original (the person settles it: docs/SYNC.md, Conflicts).
   */
  note(path: string, message: Words | string, copy?: string): void;
}

export type ExecutionResult = Omit<SyncSummary, 'problems' | 'requests'> & {
  /** Something on disk was not as the journal said: a full walk should follow. */
  recheck: boolean;
  /** Synced items missing here: their new versions, and what goes into them, wait. */
  waiting: Set<number>;
  /** Folders made again: what else was deleted in them is for the local pass to send. */
  rescan: Set<string>;
};

export interface ExecutorContext {
  client: ServiceClient;
  journal: Journal;
  local: LocalRoot;
  trash: Trash;
  log: Logger;
  events: ExecutionEvents;
  concurrency: number;
  signal?: AbortSignal;
  /**
   * Whether a synced item missing here may come back for what the service changed in it: the
   * local pass has seen it deleted (the service's change wins), or has looked since it was
   * first found missing. Until then it may have been moved here, not deleted.
   */
  deletedHere: ReadonlySet<number>;
}

interface ArchiveProgress {
  /** Bytes of the zip arrived. */
  received(n: number): void;
  /** Bytes of its files written in place. */
  extracted(n: number): void;
}

/**
 * An archive's share of the progress's bytes: the pass's total counted its files' listed sizes
 * (a zip's own length is not known before it ends), so the zip's bytes count as they arrive, up
 * to that, and unpacking then counts what a compressed zip weighed less than its files. Files it
 * did not deliver count again as single downloads (work found beyond the plan).
 */
function archiveProgress(job: ArchiveJob, count: (n: number) => void): ArchiveProgress {
  let limit = 0;
  for (const p of job.files.values()) limit += p.item.size;
  let counted = 0;
  let received = 0;
  let extracted = 0;
  const upTo = (n: number) => {
    const add = Math.min(n, limit) - counted;
    if (add <= 0) return;
    counted += add;
    count(add);
  };
  return {
    received: (n) => upTo((received += n)),
    extracted: (n) => upTo((extracted += n)),
  };
}

/** The local path of an archive's folder ('' for the root), from any of its files. */
function archiveFolder(job: ArchiveJob): string {
  for (const [inZip, p] of job.files) {
    // Local names may differ from the zip's (service) names, but not in number.
    const depth = inZip.split('/').length;
    return p.path.split('/').slice(0, -depth).join('/');
  }
  return '';
}

/** Archives downloading at once: enough to keep the service busy, few enough to unpack early. */
const ARCHIVES_IN_FLIGHT = 4;
/** Archives fetched or being fetched and not unpacked yet, at most. */
export const ARCHIVES_HELD = 8;

/**
 * Runs `work` over `items`, `concurrency` at a time, in order; the first error stops the rest
 * and is thrown once the running ones have ended.
 */
async function eachLimit<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | null = null;
  const worker = async () => {
    while (failure === null && next < items.length) {
      try {
        await work(items[next++]!);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (failure) throw (failure as { err: unknown }).err;
}

/**
 * Carries out a plan on the disk, checking each place before it touches it: nothing that the
 * journal does not know (unsynced local work) is overwritten or trashed — it is renamed aside as
 * a conflict copy — and every removal goes to the trash. Each step is recorded in the journal as
 * soon as it is done, so an interruption loses nothing and the next pass carries on.
 */
export class Executor {
  private readonly result: ExecutionResult = (({ problems: _p, ...counts }) => ({
    ...counts,
    recheck: false,
    waiting: new Set<number>(),
    rescan: new Set<string>(),
  }))(emptySummary());

  /** Where items now in the holding place were, for the trash's record of them. */
  private readonly held = new Map<number, string>();
  /** Items staged for the trash so far: each gets a name of its own in the holding place. */
  private trashed = 0;
  /** The pass failed: what is still running stops at its next step. */
  private failed = false;
  /**
   * Folders that could not be placed here (their path too long for this computer, a name it
   * refuses, no permission): one problem each, and nothing below them is tried in this pass.
   */
  private readonly blocked = new Set<string>();

  constructor(private readonly ctx: ExecutorContext) {}

  /** Carries out a whole plan: structure, then the trash, then the content. */
  async run(plan: Plan): Promise<ExecutionResult> {
    this.begin();
    try {
      // Archives are asked for first: the service builds and sends them while the disk is busy
      // with the folders.
      await this.content(plan, async () => {
        this.structureOps(plan.structure);
        await this.trashItems(plan.trash);
      });
    } finally {
      this.end();
    }
    return this.result;
  }

  /** What was done so far. */
  get outcome(): ExecutionResult {
    return this.result;
  }

  /** Starts a pass carried out in parts (a full walk's chunks): `end` closes it. */
  begin(): void {
    this.ctx.local.newPass();
    mkdirSync(this.ctx.local.abs(PARTIAL_DIR), { recursive: true });
  }

  end(): void {
    this.ctx.local.endPass();
  }

  /** Folder creations, moves and renames, in order (parents before children). */
  structureOps(ops: readonly StructureOp[]): void {
    try {
      for (const op of ops) {
        this.check();
        this.ctx.events.begin(op.type === 'mkdir' ? 'mkdir' : 'move', op.path);
        if (this.isBlocked(op.path)) {
          this.ctx.events.done();
          continue;
        }
        try {
          this.structure(op);
        } catch (err) {
          if (isItemError(err))
            this.itemFailed(op.path, op.item.id, err, op.item.kind === 'folder');
          else if (err instanceof SwapError) this.swapped(op.path, op.item.id, err);
          else throw err;
        }
        this.ctx.events.done();
      }
    } catch (err) {
      this.failed = true;
      throw err;
    }
  }

  /** Items deleted on the service (topmost only), to the trash. */
  async trashItems(items: readonly JournalItem[]): Promise<void> {
    try {
      for (const j of items) {
        this.check();
        const now = this.ctx.journal.items.get(j.remoteId);
        if (now) {
          this.ctx.events.begin('trash', now.localPath);
          try {
            await this.trashItem(now);
          } catch (err) {
            // It stays here, and so does what is in it: a problem of its own, not its subtree's.
            if (isItemError(err)) this.itemFailed(now.localPath, now.remoteId, err, false);
            else if (err instanceof SwapError) this.swapped(now.localPath, now.remoteId, err);
            else throw err;
          }
        }
        this.ctx.events.done();
      }
    } catch (err) {
      this.failed = true;
      throw err;
    }
  }

  /**
   * Files: refused ones recorded, single downloads and archives. `before` runs once the
   * archives are asked for and before anything is placed (the folders they go into).
   */
  async content(
    plan: Pick<Plan, 'downloads' | 'refused'> & { archives: readonly (ArchiveJob | LazyArchive)[] },
    before?: () => Promise<void>,
  ): Promise<void> {
    const { client, local, log, signal } = this.ctx;
    const partial = local.abs(PARTIAL_DIR);
    const fetchLimit = pLimit(ARCHIVES_IN_FLIGHT);
    // A zip is held (in memory up to 16 MiB) from its request until it is unpacked: the service
    // sends faster than the disk unpacks, so without this bound every archive of a mirror
    // waited in memory at once. A few fetched ahead keep the disk busy.
    const holdLimit = pLimit(ARCHIVES_HELD);
    const memory = new ZipMemory();
    // Each archive's bytes in the progress, from its first byte to its last file placed.
    const progress = new Map<ArchiveJob, ArchiveProgress>();
    let structureDone!: () => void;
    const structured = new Promise<void>((resolve) => (structureDone = resolve));
    const single = async (p: Placement) => {
      this.check();
      this.ctx.events.begin('download', p.path);
      if (this.isBlocked(p.path)) return;
      try {
        if (this.parentReady(p) && this.placeReady(p)) await this.download(p);
      } catch (err) {
        if (!isItemError(err)) throw err;
        this.itemFailed(p.path, p.item.id, err, false);
      }
    };
    const unpack = async (job: ArchiveJob, file: Zip | null): Promise<void> => {
      let left: Placement[];
      try {
        await structured;
        this.check();
        this.ctx.events.begin('archive', archiveFolder(job), job.files.size);
        left =
          file === null
            ? [...job.files.values()]
            : await extractArchive(
                file,
                partial,
                job,
                (n) => {
                  this.result.bytesDownloaded += n;
                  progress.get(job)?.extracted(n);
                },
                async (p, fetched) => {
                  await this.place(p, fetched);
                  this.ctx.events.done();
                },
                log,
                signal,
              );
      } finally {
        if (file && 'held' in file) memory.give(file.held);
        progress.delete(job);
      }
      // What the archive did not deliver is fetched file by file.
      await eachLimit(left, this.ctx.concurrency, async (p) => {
        await single(p);
        this.ctx.events.done();
      });
    };
    // A lazy archive plans its files once its turn comes, so only the held ones weigh. A
    // failure is kept for later, not left unhandled meanwhile.
    const zips = plan.archives.map((planned) => {
      const zip = holdLimit(async () => {
        const job = typeof planned === 'function' ? planned() : planned;
        if (!job) return;
        const counted = archiveProgress(job, (n) => this.ctx.events.bytes(n));
        progress.set(job, counted);
        await unpack(
          job,
          await fetchLimit(() => {
            this.ctx.events.begin('archive', archiveFolder(job), job.files.size);
            return downloadArchive(client, partial, job, log, signal, memory, counted.received);
          }),
        );
      });
      zip.catch(() => undefined);
      return zip;
    });
    try {
      await before?.();
      for (const p of plan.refused) {
        // Below a folder not placed: no record (its path may be past PATH_MAX); the folder's
        // problem says it for the subtree.
        if (!this.isBlocked(p.path)) this.recordNotPermitted(p);
        this.ctx.events.done();
      }
      structureDone();
      // A few workers take the downloads in turn: no promise per file of the whole plan.
      await Promise.all([
        eachLimit(plan.downloads, this.ctx.concurrency, async (p) => {
          await single(p);
          this.ctx.events.done();
        }),
        ...zips,
      ]);
    } catch (err) {
      // Nothing else starts behind a failed pass: the archives still to unpack and the
      // download workers stop at their next step.
      this.failed = true;
      throw err;
    } finally {
      structureDone();
      // Nothing keeps running behind a failed pass.
      await Promise.allSettled(zips);
    }
  }

  /**
   * A folder on the item's path was replaced or moved while it was written (a racing local
   * process, perhaps a link to elsewhere): what was written is undone, and the item waits for
   * the next pass; the rest of this one goes on.
   */
  private swapped(rel: string, remoteId: number, err: SwapError): void {
    this.result.recheck = true;
    this.ctx.log.warn('a folder changed while an item was written into it', { path: rel });
    this.ctx.events.problem({
      path: rel,
      remoteId,
      reason: 'local',
      message: err.message,
      ...(err.words ? { words: err.words } : {}),
    });
  }

  /**
   * An item this computer cannot hold or reach (its path too long, a name or a place refused):
   * a problem for it, in words; for a folder not placed, for what is below it too, said once.
   */
  private itemFailed(rel: string, remoteId: number, err: unknown, subtree: boolean): void {
    const said = itemErrorWords(err, rel);
    const words: Words = subtree ? { key: 'engine.fs.subtree', params: { problem: said } } : said;
    if (subtree) this.blocked.add(rel);
    this.ctx.log.warn('could not place an item here', {
      path: rel,
      code: (err as NodeJS.ErrnoException).code,
    });
    this.ctx.events.problem({
      path: rel,
      remoteId,
      reason: 'local',
      message: englishOf(words),
      words,
    });
  }

  /** Whether `rel` is in a folder that could not be placed in this pass (`itemFailed`). */
  private isBlocked(rel: string): boolean {
    if (this.blocked.size === 0) return false;
    for (let dir = parentOf(rel); dir !== ''; dir = parentOf(dir)) {
      if (this.blocked.has(dir)) return true;
    }
    return false;
  }

  /** The facts of what was just written at `rel`, looked at through its opened folder. */
  private factsAt(rel: string) {
    const st = this.ctx.local.confined.lstat(rel);
    if (!st) throw swapped(rel);
    return factsOf(st);
  }

  private check(): void {
    if (this.ctx.signal?.aborted) throw this.ctx.signal.reason ?? new Error('aborted');
    if (this.failed) throw new Error('the pass failed');
  }

  private problem(p: Placement, reason: ProblemReason, said: Words | string): void {
    const words = typeof said === 'string' ? {} : { words: said };
    const message = englishOf(said);
    this.ctx.events.problem({ path: p.path, remoteId: p.item.id, reason, message, ...words });
  }

  /** Makes room at `rel`: a journaled item that is to move later goes to a holding place, and
   * anything else (local work) is renamed aside as a conflict copy. */
  private clear(rel: string, except?: { dev: number; ino: number }): void {
    const { local, journal } = this.ctx;
    const st = local.stat(rel);
    const j = journal.items.atPath(rel);
    if (!st) {
      // Only a record holds the place (a file the role may not download): it waits too.
      if (j) this.hold(j, false);
      return;
    }
    // Case-only renames on a case-insensitive volume: the "occupant" is the item itself.
    if (except && st.ino === except.ino && st.dev === except.dev) return;
    if (j) {
      // Moved from where it was found: on a case-insensitive volume that name may differ in case
      // from the recorded one.
      this.hold(j, true, rel);
      return;
    }
    const aside = local.moveAside(rel, st.isDirectory());
    this.result.conflicts++;
    this.ctx.log.info('kept a local item that was in the way', { path: rel, keptAs: aside });
    this.ctx.events.note(rel, { key: 'engine.nameTakenThere', params: { aside } }, aside);
  }

  /**
   * Makes sure the folder that will hold `rel` is there (and inside the root). A synced folder
   * deleted here that the service just put something into comes back: the change wins.
   */
  private ensureParent(rel: string): void {
    const { local } = this.ctx;
    const slash = rel.lastIndexOf('/');
    for (const made of local.ensureFolder(slash < 0 ? '' : rel.slice(0, slash))) {
      // The folder made again is the synced one: its new identity is recorded, or the local
      // pass would take it for a new folder and the old one for deleted.
      const j = this.ctx.journal.items.atPath(made);
      if (j?.kind === 'folder') {
        this.ctx.journal.items.upsert({ ...j, ...this.factsAt(made), size: null, hash: null });
        this.result.rescan.add(made);
      }
      this.result.conflicts++;
      this.ctx.events.note(made, { key: 'engine.deletedHereChangedThere' });
    }
    local.assertContained(rel);
  }

  /**
   * A synced folder (this one or one above) replaced here by a file of its name, while the
   * service put something into it: the folder cannot come back under that name, so its record
   * takes a numbered one beside the file, and the walk that follows brings it back there.
   */
  private makeRoomAbove(folder: JournalItem): boolean {
    const { journal, local } = this.ctx;
    for (let a: JournalItem | undefined = folder; a; a = journal.items.get(a.remoteParentId)) {
      const st = local.stat(a.localPath);
      if (a.kind !== 'folder' || !st || st.isDirectory()) continue;
      const dir = parentOf(a.localPath);
      for (let n = 2; ; n++) {
        const name = disambiguate(a.localName, 'folder', n, defaultProfile());
        const to = joinPath(dir, name);
        if (local.stat(to) || journal.items.atPath(to)) continue;
        journal.items.moveTree(a, { localPath: to, localName: name });
        this.ctx.log.info('a folder replaced here by a file comes back beside it', {
          path: a.localPath,
          as: to,
        });
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the folder `p` goes into is where the plan put it. A synced folder missing here (or,
   * after a rename there lost to a change here, not at its new name) was moved or deleted here and
   * the local pass has not sent that yet: making it again would leave the item twice once the
   * move is sent. It waits for a walk after the local pass, unless that pass has looked already.
   */
  private parentReady(p: Placement): boolean {
    return this.parentState(p) !== null;
  }

  /**
   * `parentReady`, saying also whether the folder was found here as a folder (`'here'`: the
   * placement then needs no second look at it) or comes back with the item (`'anew'`).
   */
  private parentState(p: Placement): 'here' | 'anew' | null {
    const { journal, local } = this.ctx;
    const dir = parentOf(p.path);
    if (dir === '') return 'here';
    const parent = journal.items.get(p.item.parentId);
    const inPlace = parent?.kind === 'folder' && parent.localPath === dir;
    if (inPlace && local.stat(dir)?.isDirectory()) return 'here';
    if (parent && this.makeRoomAbove(parent)) {
      this.result.recheck = true;
      return null;
    }
    if (parent && inPlace) {
      for (let a: JournalItem | undefined = parent; a; a = journal.items.get(a.remoteParentId)) {
        if (this.ctx.deletedHere.has(a.remoteId)) return 'anew';
      }
    } else if (parent && this.ctx.deletedHere.has(parent.remoteId)) {
      return 'anew';
    }
    this.result.waiting.add(p.item.parentId);
    this.result.recheck = true;
    this.ctx.log.info('waits for the local pass: its folder was moved or deleted here', {
      path: p.path,
    });
    return null;
  }

  /**
   * Whether a new version may come down for a synced file. Missing from its place here, it was
   * moved or deleted here and the local pass has not sent that yet: it waits, so that a rename
   * here is sent first and the new version then comes down under the new name. Once that pass
   * has seen it deleted, the change there wins and it comes back.
   */
  private placeReady(p: Placement, j = this.ctx.journal.items.get(p.item.id)): boolean {
    const { local } = this.ctx;
    if (!j || j.kind !== 'file' || j.state !== 'synced' || local.stat(j.localPath)) return true;
    if (this.ctx.deletedHere.has(j.remoteId)) return true;
    this.result.waiting.add(j.remoteId);
    this.result.recheck = true;
    this.ctx.log.info('waits for the local pass: it was moved or deleted here', { path: p.path });
    return false;
  }

  /** Moves a synced item (and its record) to the holding place until its own turn comes. */
  private hold(j: JournalItem, onDisk: boolean, from = j.localPath): void {
    const { local, journal } = this.ctx;
    const hold = `${MOVING_DIR}/${j.remoteId}`;
    this.held.set(j.remoteId, this.held.get(j.remoteId) ?? j.localPath);
    if (onDisk) {
      mkdirSync(local.abs(MOVING_DIR), { recursive: true });
      local.confined.rename(from, hold);
    }
    journal.items.moveTree(j, { localPath: hold, localName: String(j.remoteId) });
  }

  private structure(op: StructureOp): void {
    const { local, journal } = this.ctx;
    if (op.type === 'record') {
      const j = journal.items.get(op.item.id);
      if (j) journal.items.upsert({ ...j, ...remoteFields(op.item) });
      return;
    }
    if (!this.parentReady(op)) return;
    if (op.type === 'mkdir') {
      const st = local.stat(op.path);
      // Another synced item still there (deleted or moved on the service, its turn comes
      // later in this pass) makes room; a local folder of that name is adopted instead.
      const occupant = journal.items.atPath(op.path);
      if (!st || !st.isDirectory() || (occupant && occupant.remoteId !== op.item.id)) {
        this.clear(op.path);
        this.ensureParent(op.path);
        local.confined.mkdir(op.path);
        this.result.foldersCreated++;
      }
      // An existing folder of that name is adopted: same-name folders merge.
      const facts = this.factsAt(op.path);
      journal.items.upsert({
        ...remoteFields(op.item),
        localPath: op.path,
        localName: op.name,
        ...facts,
        size: null,
        hash: null,
        state: 'synced',
      });
      this.ctx.events.placed(op.item.id);
      return;
    }
    // A move or rename: the item is wherever the journal says it is now.
    const j = journal.items.get(op.item.id);
    if (!j) return;
    // The service's new place and name; its size and time are the file's, unchanged by a move.
    const updated = {
      ...j,
      ...remoteFields(op.item),
      remoteSize: j.remoteSize,
      remoteUpdatedAt: j.remoteUpdatedAt,
    };
    const to = { localPath: op.path, localName: op.name };
    const st = local.stat(j.localPath);
    const onDisk = st !== undefined && (j.kind === 'folder') === st.isDirectory();
    if (!onDisk) {
      const there = j.localPath !== op.path ? local.stat(op.path) : undefined;
      if (there && there.ino === j.ino && there.dev === j.dev) {
        // Moved here the same way (or a change of ours the service reports back): recorded.
        // A record still at that place (deleted here, its delete not sent yet) waits aside.
        const other = journal.items.atPath(op.path);
        if (other && other.remoteId !== j.remoteId) this.hold(other, false);
        journal.items.moveTree(updated, to);
      } else if (!st && j.state !== 'synced') {
        // A record without a file (one the role may not download) just follows.
        if (j.localPath !== op.path) this.clear(op.path);
        journal.items.moveTree(updated, to);
      } else if (!st && this.ctx.deletedHere.has(j.remoteId)) {
        // Deleted here (the local pass saw it): the record follows the service, so that what
        // the service put into it comes back at its new place, and the rest is deleted there.
        if (j.localPath !== op.path) this.clear(op.path);
        journal.items.moveTree(updated, to);
        // The local pass looks there again, where the delete is now to be seen.
        this.result.rescan.add(parentOf(op.path));
      } else {
        // Moved or deleted here too, not yet sent: the local pass settles it (a local rename
        // wins over the service's; a local delete deletes it there). Only the service's side is
        // noted.
        journal.items.upsert(updated);
        // Not moved there at all: only its record waits aside here (the local pass's move of an
        // item into a place another was leaving, cut short), for the local pass to finish.
        const same = j.remoteParentId === op.item.parentId && j.remoteName === op.item.name;
        if (same && parentOf(j.localPath) === MOVING_DIR) return;
        this.ctx.events.note(j.localPath, {
          key: 'engine.movedThereChangedHere',
          params: { name: op.item.name },
        });
      }
      return;
    }
    if (j.localPath !== op.path) {
      this.clear(op.path, st);
      local.assertContained(j.localPath);
      this.ensureParent(op.path);
      local.confined.rename(j.localPath, op.path);
      this.result.moved++;
    }
    journal.items.moveTree(updated, to);
    // A folder moved up a level may now hold room for what could not be placed below it (a
    // chain too deep for this disk, seed 116634400): no event names those items, a walk does.
    if (
      j.kind === 'folder' &&
      depthOf(op.path) < depthOf(j.localPath) &&
      holdsAny(op.path, unplacedPaths(journal))
    ) {
      this.result.recheck = true;
    }
  }

  /**
   * Where a synced item is now when a folder above it was renamed here and the rename is not sent
   * yet: that folder found by its inode in the folder it was in (a rename in place, the common
   * case; a move elsewhere is the local pass's to find), the item below it at its own name.
   */
  private renamedAbove(j: JournalItem): string | undefined {
    const { journal, local } = this.ctx;
    for (let a = journal.items.get(j.remoteParentId); a?.kind === 'folder';) {
      const st = local.stat(a.localPath);
      if (st) return undefined;
      const dir = parentOf(a.localPath);
      if (dir === '' || local.stat(dir)?.isDirectory()) {
        let entries: string[];
        try {
          entries = readdirSync(local.abs(dir));
        } catch {
          return undefined;
        }
        for (const name of entries) {
          const at = dir === '' ? name : `${dir}/${name}`;
          const e = local.stat(at);
          if (!e?.isDirectory() || e.ino !== a.ino || e.dev !== a.dev) continue;
          const path = at + j.localPath.slice(a.localPath.length);
          const here = local.stat(path);
          const same = here && (j.kind === 'folder') === here.isDirectory() && here.ino === j.ino;
          return same ? path : undefined;
        }
        return undefined;
      }
      a = journal.items.get(a.remoteParentId);
    }
    return undefined;
  }

  private async trashItem(found: JournalItem): Promise<void> {
    const { local, journal } = this.ctx;
    let j = found;
    const now = local.stat(j.localPath) ? undefined : this.renamedAbove(j);
    if (now !== undefined) {
      // A folder above it was renamed here, not sent yet: the delete there is for the item at
      // its new name all the same (seed -1295854467: a parent renamed in case here hid it, its
      // records were dropped, and it went back up as new beside a colleague's copy of it).
      journal.items.moveTree(j, { localPath: now, localName: j.localName });
      j = journal.items.get(j.remoteId) ?? j;
    }
    const was = this.held.get(j.remoteId);
    const trash = {
      put: async (rel: string) => {
        // First into the holding place through the folder opened from the root (no link
        // followed; undone with a SwapError if a folder on the way was swapped): the trash,
        // which takes a path, is then handed our own item, never one a swap put outside.
        // A folder of its own keeps the item's name: the system trash shows it under it.
        const box = `${MOVING_DIR}/trash-${j.remoteId}-${++this.trashed}`;
        const staged = `${box}/${rel.slice(rel.lastIndexOf('/') + 1)}`;
        mkdirSync(local.abs(box), { recursive: true });
        try {
          local.confined.rename(rel, staged);
          try {
            // Under the path the user knew, not the holding place's.
            await this.ctx.trash.put(
              local.abs(staged),
              was ? was + rel.slice(j.localPath.length) : rel,
            );
          } catch (err) {
            local.confined.rename(staged, rel);
            throw err;
          }
        } finally {
          try {
            rmdirSync(local.abs(box));
          } catch {
            // Not empty (put back failed too): what is in it stays, nothing is lost.
          }
        }
      },
    };
    const st = local.stat(j.localPath);
    if (!st || st.isDirectory() !== (j.kind === 'folder')) {
      // Gone from here, or an item of the other kind took its name: that one is local work.
      journal.items.removeTree(j);
      return;
    }
    if (j.kind === 'file') {
      if (await local.unchanged(j, st)) {
        await trash.put(j.localPath);
        this.result.trashed++;
      } else {
        // Changed here, deleted there: the change wins; the file stays as local work.
        this.ctx.log.info('kept a locally changed file that was deleted on the service', {
          path: j.localPath,
        });
        this.ctx.events.note(j.localPath, { key: 'engine.deletedThereChangedHere' });
        this.result.conflicts++;
        this.keepName(j);
      }
      journal.items.removeTree(j);
      return;
    }
    if (await this.onlySyncedBelow(j)) {
      await trash.put(j.localPath);
      this.result.trashed++;
      journal.items.removeTree(j);
      return;
    }
    // Local work inside: trash what was synced and unchanged, keep the rest where it is.
    const below = journal.items.descendants(j.localPath);
    for (const d of below) {
      const dst = local.stat(d.localPath);
      if (d.kind === 'file' && dst && (await local.unchanged(d, dst))) {
        await trash.put(d.localPath);
        this.result.trashed++;
      } else this.keepName(d);
    }
    this.keepName(j);
    this.result.conflicts++;
    this.ctx.log.info('kept local work inside a folder deleted on the service', {
      path: j.localPath,
    });
    this.ctx.events.note(j.localPath, { key: 'engine.folderDeletedThere' });
    journal.items.removeTree(j);
  }

  /** An item kept here after the service deleted it goes up again under its service name. */
  private keepName(j: JournalItem): void {
    if (j.localName === j.remoteName) return;
    const st = this.ctx.local.stat(j.localPath);
    if (st) this.ctx.journal.keptNames.keep(st, j.localName, j.remoteName);
  }

  /** Whether everything inside a folder on disk is synced and unchanged. */
  private async onlySyncedBelow(folder: JournalItem): Promise<boolean> {
    const { local, journal } = this.ctx;
    const known = new Map(journal.items.descendants(folder.localPath).map((d) => [d.localPath, d]));
    const visit = async (rel: string): Promise<boolean> => {
      for (const entry of readdirSync(local.abs(rel), { withFileTypes: true })) {
        const child = joinPath(rel, entry.name);
        const j = known.get(child);
        if (!j) return false;
        if (!(await local.unchanged(j, local.stat(child)))) return false;
        if (entry.isDirectory() && !(await visit(child))) return false;
      }
      return true;
    };
    return visit(folder.localPath);
  }

  private countBytes(n: number): void {
    this.result.bytesDownloaded += n;
    this.ctx.events.bytes(n);
  }

  /**
   * Adopts, without a download, this version already in its place: an earlier run placed it and
   * stopped before its record was committed (a stop loses the journal's last uncommitted writes).
   * It is known by its size and the service's time, which the engine gave it before the rename
   * (a file changed here since has a time of its own); its hash, for the record, is read here.
   */
  private async adoptPlaced(p: Placement): Promise<boolean> {
    const { journal, local } = this.ctx;
    const remoteMs = Date.parse(p.item.updatedAt);
    if (!Number.isFinite(remoteMs)) return false;
    const st = local.stat(p.path);
    if (!st?.isFile() || st.size !== p.item.size || Math.abs(st.mtimeMs - remoteMs) >= 1) {
      return false;
    }
    // Only where no other record is: this item's record elsewhere is its file elsewhere.
    const j = journal.items.get(p.item.id);
    if (j && j.localPath !== p.path) return false;
    const other = journal.items.atPath(p.path);
    if (other && other.remoteId !== p.item.id) return false;
    // Recorded with this version already: nothing to adopt (the plan would not ask for it).
    if (j?.state === 'synced' && j.remoteUpdatedAt === p.item.updatedAt && j.size === st.size) {
      return false;
    }
    try {
      local.assertContained(p.path);
      this.record(p, await hashFile(local.abs(p.path)));
    } catch {
      // Not readable here, or its folder swapped: the download and its placement decide.
      return false;
    }
    journal.downloads.remove(p.item.id);
    // Its bytes are done as far as the progress goes, though none came over the wire.
    this.ctx.events.bytes(p.item.size);
    this.ctx.log.debug('adopted a file already in place', { path: p.path, size: p.item.size });
    return true;
  }

  private async download(p: Placement): Promise<void> {
    if (await this.adoptPlaced(p)) return;
    const { client, journal, local } = this.ctx;
    let fetched: Fetched;
    try {
      fetched = await fetchToTemp(
        client,
        journal,
        local.abs(PARTIAL_DIR),
        p.item,
        (n) => this.countBytes(n),
        this.ctx.signal,
      );
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'forbidden') {
        this.recordNotPermitted(p);
        return;
      }
      if (err instanceof ApiError && err.kind === 'not-found') return; // deleted meanwhile
      if (err instanceof VerificationError || err instanceof CutShortError) {
        this.problem(p, 'verification', err.words);
        return;
      }
      throw err;
    }
    await this.place(p, fetched);
  }

  /** Puts a fetched file in its place; a swap met on the way stops this item only. */
  private async place(p: Placement, fetched: Fetched): Promise<void> {
    if (this.isBlocked(p.path)) {
      rmSync(fetched.temp, { force: true });
      return;
    }
    try {
      await this.put(p, fetched);
    } catch (err) {
      // The download stays in the cache (undone, or never placed): the next pass resumes it.
      if (isItemError(err)) this.itemFailed(p.path, p.item.id, err, false);
      else if (err instanceof SwapError) this.swapped(p.path, p.item.id, err);
      else throw err;
    }
  }

  /** Puts a fetched file in its place, keeping whatever local work was there. */
  private async put(p: Placement, fetched: Fetched): Promise<void> {
    const { journal, local, log } = this.ctx;
    const parent = this.parentState(p);
    const j = journal.items.get(p.item.id);
    if (parent === null || !this.placeReady(p, j)) {
      rmSync(fetched.temp);
      return;
    }
    const remoteMs = Date.parse(p.item.updatedAt);
    if (Number.isFinite(remoteMs)) utimesSync(fetched.temp, new Date(), new Date(remoteMs));
    // Looked at through its folder as opened, not by a path a swap can send elsewhere (the
    // rename below checks that folder is still in its place).
    const st =
      parent === 'here' || local.stat(parentOf(p.path))?.isDirectory()
        ? local.confined.peek(p.path)
        : local.stat(p.path);
    const record = journal.items.atPath(p.path);
    if (!st && record && record.remoteId !== p.item.id) {
      // A record without a file holds the place: it waits, and a walk settles it.
      this.hold(record, false);
      this.result.recheck = true;
    }
    if (st) {
      const ours = j !== undefined && j.state === 'synced' && j.localPath === p.path;
      if (ours && (await local.unchanged(j, st))) {
        // The synced version, unchanged here: replaced by the new one.
      } else if (st.isFile() && (await sameContent(local.abs(p.path), fetched.hash))) {
        // Already there (an interrupted run, or the same file put here by hand): adopted.
        rmSync(fetched.temp);
        journal.downloads.remove(p.item.id);
        this.record(p, fetched.hash);
        return;
      } else {
        // Changed here and there, or local work in the way: both are kept.
        const other = journal.items.atPath(p.path);
        const aside = local.moveAside(p.path, st.isDirectory());
        if (other && other.remoteId !== p.item.id) {
          journal.items.removeTree(other);
          this.result.recheck = true;
        }
        this.result.conflicts++;
        log.info('kept a local version that differs from the service', {
          path: p.path,
          keptAs: aside,
        });
        this.ctx.events.note(
          p.path,
          {
            key: 'engine.bothChanged',
            params: { theirs: p.name, yours: aside.slice(aside.lastIndexOf('/') + 1) },
          },
          aside,
        );
      }
    }
    // A folder found here a moment ago is not looked at again (a mirror places 100,000 files):
    // if it went meanwhile, the rename through it fails as a swap and the item waits.
    if (parent === 'here') local.assertContained(p.path);
    else this.ensureParent(p.path);
    const placed = local.confined.renameAndStat(
      `${PARTIAL_DIR}/${path.basename(fetched.temp)}`,
      p.path,
    );
    journal.downloads.remove(p.item.id);
    this.record(p, fetched.hash, factsOf(placed));
    this.result.filesDownloaded++;
    log.debug('downloaded', { path: p.path, size: p.item.size });
  }

  private record(p: Placement, hash: string, facts = this.factsAt(p.path)): void {
    this.ctx.journal.items.upsert({
      ...remoteFields(p.item),
      localPath: p.path,
      localName: p.name,
      ...facts,
      hash,
      state: 'synced',
    });
    this.ctx.events.solved(p.item.id);
  }

  private recordNotPermitted(p: Placement): void {
    const j = this.ctx.journal.items.get(p.item.id);
    if (j?.state === 'synced' && j.ino !== null) {
      // A version here already: its record keeps what is on disk (moved or renamed here, it is
      // still found by its identity), and the new version comes down once the role allows.
      this.problem(p, 'not-permitted', { key: 'engine.noNewVersion' });
      return;
    }
    this.ctx.journal.items.upsert({
      ...remoteFields(p.item),
      localPath: p.path,
      localName: p.name,
      dev: null,
      ino: null,
      size: null,
      mtimeMs: null,
      hash: null,
      state: 'not-permitted',
    });
    this.problem(p, 'not-permitted', { key: 'engine.noDownload' });
  }
}

async function sameContent(abs: string, hash: string): Promise<boolean> {
  return (await hashFile(abs)) === hash;
}

const depthOf = (p: string): number => p.split('/').length;
