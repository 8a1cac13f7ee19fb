import { readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { SyncStatus } from '../../shared/sync-status';
import { readStateFile, writeStateFile } from './json-file';

// What a running `sync` tells `workspace-sync status`, which starts nothing: one small JSON file
// per running pair in `<state>/running/`, rewritten when its status changes (at most once a
// second, a change of state at once), removed when the sync stops. Another process reads it, so
// it holds plain data only: the pair, and the engine's status trimmed to what a person reads.

/** The folder of the running syncs' files, in the state directory. */
export const RUNNING_DIR = 'running';

/** Problems a record lists (their count is kept whole). */
const PROBLEMS_KEPT = 20;

/** At most one write a second while the state stays the same (progress changes the status often). */
const WRITE_EVERY_MS = 1000;

const Problem = z.object({ path: z.string(), message: z.string(), at: z.number() });

export const RunningRecord = z.object({
  version: z.literal(1),
  pid: z.number().int(),
  startedAt: z.number(),
  updatedAt: z.number(),
  server: z.string(),
  user: z.string(),
  workspaceId: z.number().int(),
  dir: z.string(),
  state: z.string(),
  message: z.string(),
  lastSyncAt: z.number().nullable(),
  lastError: z.object({ kind: z.string(), message: z.string(), at: z.number() }).nullable(),
  problems: z.array(Problem),
  problemCount: z.number().int(),
  conflictCount: z.number().int(),
});
export type RunningRecord = z.infer<typeof RunningRecord>;

/** The pair a record is about. */
export type RunningPair = Pick<RunningRecord, 'server' | 'user' | 'workspaceId' | 'dir'>;

/** The running file of the pair whose journal is `journalFile` (one pair, one journal). */
export function runningFile(stateDir: string, journalFile: string): string {
  return path.join(stateDir, RUNNING_DIR, `${path.basename(journalFile, '.db')}.json`);
}

/** Keeps a running sync's file up to date with its status, and removes it at the end. */
export class RunningStatusFile {
  private readonly startedAt = Date.now();
  private last: RunningRecord | null = null;
  private writtenAt = 0;
  private writtenState: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    readonly file: string,
    private readonly pair: RunningPair,
    private readonly onError: (err: unknown) => void,
  ) {}

  update(status: SyncStatus): void {
    if (this.closed) return;
    this.last = {
      version: 1,
      pid: process.pid,
      startedAt: this.startedAt,
      updatedAt: Date.now(),
      ...this.pair,
      state: status.state,
      message: status.message,
      lastSyncAt: status.lastSyncAt,
      lastError: status.lastError,
      problems: status.problems
        .slice(-PROBLEMS_KEPT)
        .map(({ path: p, message, at }) => ({ path: p, message, at })),
      problemCount: status.problems.length,
      conflictCount: status.conflicts.length,
    };
    const wait = this.writtenAt + WRITE_EVERY_MS - Date.now();
    if (status.state !== this.writtenState || wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait);
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const record = this.last;
    if (!record || this.closed) return;
    this.writtenAt = Date.now();
    this.writtenState = record.state;
    this.writing = this.writing
      .then(() => writeStateFile(this.file, record))
      .catch((err: unknown) => this.onError(err));
  }

  /** The sync stopped: its file goes (a file left behind says a sync ended without closing). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.writing;
    await unlink(this.file).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') this.onError(err);
    });
  }
}

/** Whether a process of that id is alive (ours to signal or not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface SeenRecord extends RunningRecord {
  /** False: the sync ended without removing its file (killed, or the machine stopped). */
  running: boolean;
}

/** The records of the state directory, the running ones first; unreadable files are skipped. */
export async function readRunning(stateDir: string): Promise<SeenRecord[]> {
  const dir = path.join(stateDir, RUNNING_DIR);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const seen: SeenRecord[] = [];
  for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort()) {
    const text = await readStateFile(path.join(dir, name)).catch(() => null);
    if (text === null) continue; // gone meanwhile: that sync just stopped
    let parsed: RunningRecord;
    try {
      parsed = RunningRecord.parse(JSON.parse(text));
    } catch {
      continue; // another version's, or damaged: nothing a person could read from it
    }
    seen.push({ ...parsed, running: alive(parsed.pid) });
  }
  return seen.sort((a, b) => Number(b.running) - Number(a.running));
}
