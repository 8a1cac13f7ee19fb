import type { Language } from '../../../shared/i18n';
import type { KeepChoice } from './attention';
import type { FetchAskedOutcome } from './fetch-asked';
import type { OnDemandOp } from './on-demand-actions';
import type { RemoteDeleteAnswer } from './remote-guard';

/** A person's action on a pair, as a message for the loop (after Syncthing's `doInSync`). */
export type Action =
  | { kind: 'pause' }
  | { kind: 'resume' }
  | { kind: 'confirm-deletes' }
  | { kind: 'answer-remote-deletes'; answer: RemoteDeleteAnswer }
  | { kind: 'choose-for-conflict'; id: number; keep: KeepChoice }
  | { kind: 'retry-problem'; key: string }
  | { kind: 'dismiss-problem'; key: string }
  | { kind: 'set-language'; language: Language }
  | { kind: 'set-poll-interval'; ms: number }
  | { kind: 'set-extra-ignore'; lines: readonly string[] }
  | { kind: 'selection-changed' }
  | { kind: 'files-on-demand'; op: OnDemandOp; paths: readonly string[] }
  | {
      kind: 'fetch-asked';
      paths: readonly string[];
      signal?: AbortSignal;
      answer: (outcome: FetchAskedOutcome) => void;
    };

interface Queued {
  action: Action;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * The engine's inbox: a person's actions wait here while a pass runs and are applied by the loop
 * between passes (and when the passes end), in the order they came; when no pass runs, at once.
 * So a pass never sees its fields change under it, and an action never sees half a pass. Each
 * action's promise settles with its outcome (a refusal reaches the caller as its error).
 */
export class Inbox {
  private readonly queue: Queued[] = [];
  private passRunning = false;
  /** Actions are being applied (one may be awaiting the disk or the journal). */
  private busy = false;
  private applying: Promise<void> | null = null;

  constructor(private readonly apply: (action: Action) => void | Promise<void>) {}

  /** Queues an action; its promise settles once it has been applied. */
  send(action: Action): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ action, resolve, reject });
      if (!this.passRunning) void this.drain();
    });
  }

  /** A pass may start once what came before it is applied; actions then wait for it. */
  async passStarts(): Promise<void> {
    while (this.queue.length > 0 || this.busy) await this.drain();
    this.passRunning = true;
  }

  /** A pass ended (or failed): what came meanwhile is applied now. */
  async passEnds(): Promise<void> {
    this.passRunning = false;
    while (this.queue.length > 0 || this.busy) await this.drain();
  }

  /** The safe point between two passes. */
  async between(): Promise<void> {
    await this.passEnds();
    await this.passStarts();
  }

  private drain(): Promise<void> {
    if (this.busy) return this.applying ?? Promise.resolve();
    const done = this.applyQueued();
    // Every action so far was synchronous: it is all applied already, nothing to wait for.
    if (this.busy) this.applying = done;
    return done;
  }

  private async applyQueued(): Promise<void> {
    this.busy = true;
    try {
      for (let q = this.queue.shift(); q; q = this.queue.shift()) {
        try {
          const pending = this.apply(q.action);
          if (pending) await pending;
          q.resolve();
        } catch (err) {
          q.reject(err);
        }
      }
    } finally {
      this.busy = false;
      this.applying = null;
    }
  }
}
