import { SingleBar } from 'cli-progress';
import type {
  SyncConflict,
  SyncNotice,
  SyncOperation,
  SyncProblem,
  SyncStatus,
  SyncSummary,
} from '../../shared/sync-status';
import { bytesWords, progressFraction, rateWords, stepWords } from '../../shared/progress-words';
import { english, type Translator } from '../../shared/i18n';
import { redact } from '../api/errors';
import { writeLine, type Output } from './common';

/** How `sync` shows what the engine does: JSON lines, or lines (and a bar on a terminal). */
export interface SyncReporter {
  sandbox(info: { baseUrl: string; workspaceId: number; email: string }): void;
  status(status: SyncStatus): void;
  problem(problem: SyncProblem): void;
  conflict(conflict: SyncConflict): void;
  notice(notice: SyncNotice): void;
  summary(summary: SyncSummary): void;
  /** Continuous sync ended on a signal. */
  stopped(): void;
  /** A failure that ends the command (the one-line message on stderr is main's). */
  error(kind: string, message: string): void;
  /** Stops timers and the bar; writes any progress still held back. */
  close(): void;
}

/** At most this many progress lines a second. */
const PROGRESS_PER_SECOND = 5;

interface Progress {
  items: SyncStatus['items'];
  bytes: SyncStatus['bytes'];
  current: SyncOperation | null;
  rate: SyncStatus['rate'];
}

const sameProgress = (a: Progress | null, b: Progress) =>
  a !== null &&
  a.items.done === b.items.done &&
  a.items.total === b.items.total &&
  a.bytes.done === b.bytes.done &&
  a.bytes.total === b.bytes.total &&
  a.current?.op === b.current?.op &&
  a.current?.path === b.current?.path;

/** Strings through redact(), at any depth: nothing the engine says may carry a secret out. */
function scrub<T>(value: T): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map(scrub) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v)])) as T;
  }
  return value;
}

/**
 * One JSON object per line: `status` when the state or its message changes, `progress` at most
 * five times a second, `problem`, `conflict`, `notice`, `error` (a new lastError, or the failure that ends the
 * command), `summary` after --once, and `sandbox` when an embedded sandbox was started.
 */
export class JsonReporter implements SyncReporter {
  private lastStatus: { state: string; message: string } | null = null;
  private lastErrorKey: string | null = null;
  private sentProgress: Progress | null = null;
  private pendingProgress: Progress | null = null;
  private lastProgressAt = -Infinity;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly out: Output,
    private readonly now: () => number = Date.now,
  ) {}

  private emit(obj: Record<string, unknown>): void {
    writeLine(this.out, JSON.stringify(scrub(obj)));
  }

  sandbox(info: { baseUrl: string; workspaceId: number; email: string }): void {
    this.emit({ type: 'sandbox', ...info });
  }

  status(s: SyncStatus): void {
    if (this.lastStatus?.state !== s.state || this.lastStatus.message !== s.message) {
      this.lastStatus = { state: s.state, message: s.message };
      this.emit({ type: 'status', ...s });
    }
    if (s.lastError) {
      const key = `${s.lastError.at}\u0000${s.lastError.kind}\u0000${s.lastError.message}`;
      if (key !== this.lastErrorKey) {
        this.lastErrorKey = key;
        this.emit({ type: 'error', kind: s.lastError.kind, message: s.lastError.message });
      }
    }
    this.progress({ items: s.items, bytes: s.bytes, current: s.current, rate: s.rate ?? null });
  }

  private progress(p: Progress): void {
    if (sameProgress(this.pendingProgress ?? this.sentProgress, p)) return;
    this.pendingProgress = p;
    const wait = this.lastProgressAt + 1000 / PROGRESS_PER_SECOND - this.now();
    if (wait <= 0) this.flushProgress();
    else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.flushProgress();
      }, wait);
      this.timer.unref();
    }
  }

  private flushProgress(): void {
    const p = this.pendingProgress;
    if (!p) return;
    this.pendingProgress = null;
    this.sentProgress = p;
    this.lastProgressAt = this.now();
    this.emit({
      type: 'progress',
      items: p.items,
      bytes: p.bytes,
      current: p.current,
      // For people reading the lines: the step in words, and the speed (absent before known).
      step: p.current ? stepWords(p.current) : null,
      ...(p.rate ? { rate: p.rate } : {}),
    });
  }

  problem(p: SyncProblem): void {
    this.emit({ type: 'problem', ...p });
  }

  conflict(c: SyncConflict): void {
    this.emit({ type: 'conflict', ...c });
  }

  notice(n: SyncNotice): void {
    this.emit({ type: 'notice', ...n });
  }

  stopped(): void {
    this.flushProgress();
  }

  summary(s: SyncSummary): void {
    this.flushProgress();
    this.emit({ type: 'summary', ...s });
  }

  error(kind: string, message: string): void {
    this.flushProgress();
    this.emit({ type: 'error', kind, message });
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.flushProgress();
  }
}

function clock(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
}

/**
 * The round's summary in one sentence, in the language (`tr`): counts as the progress bar writes
 * them (2,000), each with its plural. English by default: `--json` and logs read it too.
 */
export function describeSummary(s: SyncSummary, tr: Translator = english): string {
  const parts = [
    tr.t('cli.foldersCreated', { n: s.foldersCreated }),
    tr.t('cli.filesDownloaded', {
      n: s.filesDownloaded,
      bytes: bytesWords(s.bytesDownloaded, tr),
    }),
    tr.t('cli.moved', { n: s.moved }),
    tr.t('cli.trashed', { n: s.trashed }),
    // Only where it happened: most rounds free nothing.
    ...(s.freed ? [tr.t('cli.freed', { n: s.freed })] : []),
    ...(s.remoteFoldersCreated + s.uploaded + s.remoteMoved + s.remoteDeleted > 0
      ? [
          tr.t('cli.sent', {
            folders: s.remoteFoldersCreated,
            files: s.uploaded,
            bytes: bytesWords(s.bytesUploaded, tr),
            moved: s.remoteMoved,
            deleted: s.remoteDeleted,
          }),
        ]
      : []),
    tr.t('cli.conflicts', { n: s.conflicts }),
    tr.t('cli.problems', { n: s.problems }),
  ];
  if (s.requests !== undefined) parts.push(tr.t('cli.requests', { n: s.requests }));
  return tr.t('cli.summary', { parts: parts.join(', ') });
}

/** The bar's fill, in steps: items and bytes together (the counts are said beside it). */
const BAR_STEPS = 1000;
const barValue = (s: SyncStatus) => Math.round(progressFraction(s) * BAR_STEPS);

/**
 * What the bar says beside itself: "1,234/2,000 items | 2.5 MB of 4.1 MB | 3.1 MB/s, about 20 s
 * left | Downloading 2,000 files in one archive" (the parts not known yet left out).
 */
export function progressDetail(
  s: Pick<SyncStatus, 'items' | 'bytes' | 'rate' | 'current'>,
  tr: Translator = english,
): string {
  const parts = [
    tr.t('cli.progressItems', { done: tr.count(s.items.done), total: tr.count(s.items.total) }),
  ];
  if (s.bytes.total > 0)
    parts.push(
      tr.t('cli.bytesOf', {
        done: bytesWords(s.bytes.done, tr),
        total: bytesWords(s.bytes.total, tr),
      }),
    );
  const rate = rateWords(s.rate, tr);
  if (rate) parts.push(rate);
  if (s.current) parts.push(stepWords(s.current, tr));
  return parts.join(' | ');
}

/**
 * For people: a line for each change of state (and each problem); on a terminal also a progress
 * bar (items, megabytes, the current path) while a pass has work.
 */
export class TextReporter implements SyncReporter {
  private last: { state: string; message: string } | null = null;
  private bar: SingleBar | null = null;
  /** A pass failed and the next tries have not got past it yet. */
  private failing = false;
  /** The state lines said since the last "Up to date". */
  private readonly said = new Set<string>();

  constructor(
    private readonly out: Output,
    private readonly tty: boolean,
    private readonly now: () => number = Date.now,
    /** The language of its lines (the CLI's, from LANG); the engine's words are said in it. */
    private readonly tr: Translator = english,
  ) {}

  private line(text: string): void {
    this.stopBar();
    writeLine(this.out, redact(text));
  }

  sandbox(info: { baseUrl: string; workspaceId: number; email: string }): void {
    this.line(
      this.tr.t('cli.sandbox', {
        url: info.baseUrl,
        id: String(info.workspaceId),
        email: info.email,
      }),
    );
  }

  status(s: SyncStatus): void {
    if (this.last?.state !== s.state || this.last.message !== s.message) {
      this.last = { state: s.state, message: s.message };
      const text = (s.words ? this.tr.say(s.words) : s.message) || s.state;
      // Retries of a failure (a full disk) go through the same states each time: each line is
      // said once until the failure is over, not once per retry.
      const repeat = this.failing && this.said.has(text);
      if (s.state === 'error' || s.state === 'offline') this.failing = true;
      else if (s.state !== 'scanning' && s.state !== 'syncing') this.failing = false;
      if (s.state === 'idle') this.said.clear();
      this.said.add(text);
      if (!repeat || s.state === 'needs-attention') this.line(`${clock(this.now())}  ${text}`);
      // What to do about it, e.g. run again with --confirm-deletes.
      if (s.state === 'needs-attention' && s.lastError && s.lastError.message !== s.message) {
        const why = s.lastError.words ? this.tr.say(s.lastError.words) : s.lastError.message;
        this.line(`          ${why}`);
      }
    }
    if (!this.tty) return;
    const busy = (s.state === 'syncing' || s.state === 'scanning') && s.items.total > 0;
    if (!busy) {
      this.stopBar();
      return;
    }
    const payload = { detail: redact(progressDetail(s, this.tr)) };
    if (!this.bar) {
      this.bar = new SingleBar({
        stream: this.out,
        format: '{bar} {detail}',
        barsize: 24,
        hideCursor: true,
        clearOnComplete: true,
        gracefulExit: false,
        fps: 5,
      });
      this.bar.start(BAR_STEPS, barValue(s), payload);
    } else this.bar.update(barValue(s), payload);
  }

  problem(p: SyncProblem): void {
    const path = p.path || this.tr.t('cli.unknownPath');
    const message = p.words ? this.tr.say(p.words) : p.message;
    this.line(this.tr.t('cli.problem', { path, message }));
  }

  conflict(c: SyncConflict): void {
    const path = c.path || this.tr.t('cli.theFolder');
    const message = c.words ? this.tr.say(c.words) : c.message;
    this.line(this.tr.t('cli.conflict', { path, message }));
  }

  notice(n: SyncNotice): void {
    this.line(this.tr.t('cli.note', { message: n.words ? this.tr.say(n.words) : n.message }));
  }

  summary(s: SyncSummary): void {
    this.line(describeSummary(s, this.tr));
  }

  stopped(): void {
    this.line(`${clock(this.now())}  ${this.tr.t('cli.stopped')}`);
  }

  error(): void {
    this.stopBar();
  }

  private stopBar(): void {
    if (!this.bar) return;
    this.bar.stop();
    this.bar = null;
  }

  close(): void {
    this.stopBar();
  }
}
