// The down side's content step: files refused recorded, single downloads and folder archives.
// It is started before the structure (`start`: archives are asked for at once, so the service
// builds and sends them while the disk is busy with the folders) and placed after it
// (`place`): nothing is unpacked into a folder not made yet.
import pLimit from 'p-limit';
import { PARTIAL_DIR } from '../paths';
import { isItemError } from '../local-error';
import { downloadArchive, extractArchive, ZipMemory, type Zip } from './archive';
import type { Execution } from './execution';
import { download, place } from './place-file';
import { placeOnline, type OnlineRun } from './place-online';
import { parentReady, placeReady } from './places';
import type { ArchiveJob, LazyArchive, Placement, Plan } from './plan-types';
import { highWater } from '../high-water';

/** Archives downloading at once: enough to keep the service busy, few enough to unpack early. */
const ARCHIVES_IN_FLIGHT = 4;
/** Archives fetched or being fetched and not unpacked yet, at most. */
export const ARCHIVES_HELD = 8;

export type ContentPlan = Pick<Plan, 'downloads' | 'refused' | 'placeholders'> & {
  archives: readonly (ArchiveJob | LazyArchive)[];
};

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
  let received = 0;
  let extracted = 0;
  const upTo = highWater(limit, count);
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

/** Places the placeholders of files kept online only; returns those to come in full instead. */
function placeholders(x: Execution, planned: readonly Placement[]): Placement[] {
  const full: Placement[] = [];
  const run: OnlineRun = { here: null };
  for (const p of planned) {
    x.check();
    x.ctx.events.begin('placeholder', p.path);
    if (!x.isBlocked(p.path)) {
      try {
        if (placeOnline(x, p, run) === 'full') full.push(p);
      } catch (err) {
        run.here = null;
        x.failedItem(p.path, p.item.id, err, false);
      }
    }
    x.ctx.events.done();
  }
  return full;
}

/** One plan's content: its archives asked for on `start`, everything placed by `place`. */
export class Content {
  private readonly partial: string;
  private readonly fetchLimit = pLimit(ARCHIVES_IN_FLIGHT);
  // A zip is held (in memory up to 16 MiB) from its request until it is unpacked: the service
  // sends faster than the disk unpacks, so without this bound every archive of a mirror
  // waited in memory at once. A few fetched ahead keep the disk busy.
  private readonly holdLimit = pLimit(ARCHIVES_HELD);
  private readonly memory = new ZipMemory();
  /** Each archive's bytes in the progress, from its first byte to its last file placed. */
  private readonly progress = new Map<ArchiveJob, ArchiveProgress>();
  private structureDone!: () => void;
  /** Resolved once the folders are made: archives fetched before then wait to unpack. */
  private readonly structured = new Promise<void>((resolve) => (this.structureDone = resolve));
  private readonly zips: Promise<void>[];

  private constructor(
    private readonly x: Execution,
    private readonly plan: ContentPlan,
  ) {
    this.partial = x.ctx.local.abs(PARTIAL_DIR);
    this.zips = plan.archives.map((planned) => this.archive(planned));
  }

  /** Asks for the plan's archives now; nothing is placed before `place`. */
  static start(x: Execution, plan: ContentPlan): Content {
    return new Content(x, plan);
  }

  /** Records the refused files, then downloads and unpacks the rest, in place. */
  async place(): Promise<void> {
    try {
      for (const p of this.plan.refused) {
        // Below a folder not placed: no record (its path may be past PATH_MAX); the folder's
        // problem says it for the subtree.
        if (!this.x.isBlocked(p.path)) this.x.recordNotPermitted(p);
        this.x.ctx.events.done();
      }
      // Placeholders first (no request); one that cannot be comes in full with the downloads.
      const full = placeholders(this.x, this.plan.placeholders ?? []);
      this.structureDone();
      // A few workers take the downloads in turn: no promise per file of the whole plan.
      const downloads = full.length > 0 ? [...this.plan.downloads, ...full] : this.plan.downloads;
      await Promise.all([
        eachLimit(downloads, this.x.ctx.concurrency, async (p) => {
          await this.single(p);
          this.x.ctx.events.done();
        }),
        ...this.zips,
      ]);
    } catch (err) {
      // Nothing else starts behind a failed pass: the archives still to unpack and the
      // download workers stop at their next step.
      this.x.failed = true;
      throw err;
    } finally {
      this.structureDone();
      // Nothing keeps running behind a failed pass.
      await Promise.allSettled(this.zips);
    }
  }

  /**
   * The pass failed before or while placing: nothing else starts behind it (the archives still
   * to unpack and the download workers stop at their next step), and this waits for what runs.
   */
  async abandon(): Promise<void> {
    this.x.failed = true;
    this.structureDone();
    await Promise.allSettled(this.zips);
  }

  /**
   * One archive: fetched once its turn comes, then unpacked. A lazy archive plans its files
   * then, so only the held ones weigh. A failure is kept for `place`, not left unhandled
   * meanwhile.
   */
  private archive(planned: ArchiveJob | LazyArchive): Promise<void> {
    const { client, log, signal } = this.x.ctx;
    const zip = this.holdLimit(async () => {
      const job = typeof planned === 'function' ? planned() : planned;
      if (!job) return;
      const counted = archiveProgress(job, (n) => this.x.ctx.events.bytes(n));
      this.progress.set(job, counted);
      const file = await this.fetchLimit(() => {
        this.x.ctx.events.begin('archive', archiveFolder(job), job.files.size);
        const { partial, memory } = this;
        return downloadArchive(client, partial, job, log, signal, memory, counted.received);
      });
      await this.unpack(job, file);
    });
    zip.catch(() => undefined);
    return zip;
  }

  private async unpack(job: ArchiveJob, file: Zip | null): Promise<void> {
    const x = this.x;
    let left: Placement[];
    try {
      await this.structured;
      x.check();
      x.ctx.events.begin('archive', archiveFolder(job), job.files.size);
      left =
        file === null
          ? [...job.files.values()]
          : await extractArchive(
              file,
              this.partial,
              job,
              (n) => {
                x.result.bytesDownloaded += n;
                this.progress.get(job)?.extracted(n);
              },
              async (p, fetched) => {
                await place(x, p, fetched);
                x.ctx.events.done();
              },
              x.ctx.log,
              x.ctx.signal,
            );
    } finally {
      if (file && 'held' in file) this.memory.give(file.held);
      this.progress.delete(job);
    }
    // What the archive did not deliver is fetched file by file.
    await eachLimit(left, x.ctx.concurrency, async (p) => {
      await this.single(p);
      x.ctx.events.done();
    });
  }

  private async single(p: Placement): Promise<void> {
    const x = this.x;
    x.check();
    x.ctx.events.begin('download', p.path);
    if (x.isBlocked(p.path)) return;
    try {
      if (parentReady(x, p) && placeReady(x, p)) await download(x, p);
    } catch (err) {
      if (!isItemError(err)) throw err;
      x.itemFailed(p.path, p.item.id, err, false);
    }
  }
}
