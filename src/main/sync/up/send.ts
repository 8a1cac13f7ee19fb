import pLimit from 'p-limit';
import { parentOf } from '../paths';
import { remoteFields } from '../remote';
import { resolveIntent, type IntentPayload } from './outbox';
import type { DeleteOp, RelinkOp, RetireOp, UpPlan, UploadOp } from './plan';
import { FileSender } from './send-files';
import { Retirer } from './send-retire';
import { SendState, facts, type SendContext, type SendResult } from './send-state';
import { StructureSender } from './send-structure';

export type { SendContext, SendEvents, SendResult } from './send-state';

/**
 * Sends an up plan to the service, job by job, in the order the loop calls them: relinks, the
 * structure (moves and new folders), uploads, retiring copied places, deletes. Each mutation is an
 * intent in the outbox before it leaves; the journal records its result with the intent's
 * completion. What the service refuses stays on disk and is reported, never undone. What sending
 * learns (a version changed there, a server without moves, folders to look at again) is in
 * `result`, for the loop's next passes: sending never plans, reads the feed or applies.
 */
export class Sender {
  private readonly s: SendState;

  constructor(ctx: SendContext) {
    this.s = new SendState(ctx);
  }

  get result(): SendResult {
    return this.s.result;
  }

  /** Same items, same content, new local facts: the journal only. */
  relink(relinks: readonly RelinkOp[]): void {
    const { journal } = this.s.ctx;
    for (const r of relinks) {
      const j = journal.items.get(r.item.remoteId);
      if (j) journal.items.upsert({ ...j, ...facts(r.entry) });
    }
  }

  /**
   * Moves and new folders, in waves (a folder's parent must exist first); a cycle's breaking
   * items step aside under temporary names first.
   */
  async structure(
    up: Pick<UpPlan, 'moves' | 'mkdirs'> & Partial<Pick<UpPlan, 'asides'>>,
  ): Promise<void> {
    for (const m of up.moves) this.s.leaving.add(m.item.remoteId);
    await new StructureSender(this.s).run(up.moves, up.mkdirs, up.asides);
  }

  async uploads(ops: UpPlan['uploads']): Promise<void> {
    const files = new FileSender(this.s);
    const limit = pLimit(this.s.ctx.concurrency);
    await Promise.all(ops.map((op) => limit(() => files.upload(op))));
  }

  /**
   * Uploads handed over a chunk at a time (new files, folder by folder: up/fresh.ts): a fixed set
   * of workers takes them, so nothing is held per file beyond the chunk being sent. The first
   * failure stops the workers taking more, and is thrown.
   */
  async uploadChunks(chunks: AsyncIterable<UploadOp[]>): Promise<void> {
    const files = new FileSender(this.s);
    const source = chunks[Symbol.asyncIterator]();
    let chunk: UploadOp[] = [];
    let next = 0;
    let failed = false;
    let ended = false;
    // One reader of the source at a time: workers wait for the chunk being read.
    let reading: Promise<void> | null = null;
    const take = async (): Promise<UploadOp | undefined> => {
      while (!failed) {
        if (next < chunk.length) return chunk[next++];
        if (ended) return undefined;
        reading ??= source.next().then((r) => {
          reading = null;
          if (r.done) ended = true;
          else {
            chunk = r.value;
            next = 0;
          }
        });
        await reading;
      }
      return undefined;
    };
    const worker = async () => {
      for (let op = await take(); op; op = await take()) {
        try {
          await files.upload(op);
        } catch (err) {
          failed = true;
          throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: this.s.ctx.concurrency }, worker));
  }

  /** After the copies they wait for: each old place is checked, then deleted. */
  async retire(ops: readonly RetireOp[]): Promise<void> {
    const retirer = new Retirer(this.s);
    for (const op of ops) await retirer.retire(op);
  }

  async deletes(ops: readonly DeleteOp[]): Promise<void> {
    const files = new FileSender(this.s);
    const limit = pLimit(this.s.ctx.concurrency);
    await Promise.all(ops.map((op) => limit(() => files.delete(op))));
  }

  /**
   * Resolves intents a crash or a failed pass left open, by looking at the service. Returns the
   * folders to look at again.
   */
  async resolveOpenIntents(): Promise<ReadonlySet<string>> {
    const { journal, client, log } = this.s.ctx;
    for (const intent of journal.outbox.open()) {
      const payload = intent.payload as IntentPayload;
      const s = await resolveIntent(client, journal, payload, this.s.origin(intent.createdAt));
      if (s.made) {
        journal.transaction(() => {
          this.s.record(payload, s.item);
          journal.outbox.complete(intent.id, { settled: true });
          // Its event is ours, as a mutation's answered one is: read back, it costs no look
          // (and a rename's new time is not taken for a new version of the file there now).
          // Not an upload found renamed since (no time: the later rename is someone's).
          const at = s.item ? Date.parse(s.item.updatedAt) : NaN;
          if (s.item && payload.op !== 'delete' && Number.isFinite(at)) {
            journal.feed.noteOwnChange(s.item.id, at);
          }
        });
        log.info('resolved an interrupted change: it was made', { op: payload.op });
      } else {
        journal.transaction(() => {
          const j = s.renamedInPlace && journal.items.get(s.renamedInPlace.id);
          if (j) journal.items.upsert({ ...j, ...remoteFields(s.renamedInPlace!) });
          journal.outbox.fail(intent.id, 'not made; the next pass does it again');
        });
      }
      this.s.result.rescan.add(parentOf(payload.path));
    }
    return this.s.result.rescan;
  }
}
