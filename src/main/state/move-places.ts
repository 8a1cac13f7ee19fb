import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import path from 'node:path';
import type { Logger } from '../core/logger';
import type { Places } from './state-dir';

// Versions before the OS's places kept everything in the state directory. On the first start
// after them, what belongs elsewhere moves there: the settings and the pairs into the config
// directory, the logs into the log directory. A file already at its new place wins (it is the
// newer); nothing is overwritten, and a move that fails leaves the old file where it was.

/** Files of the person's choosing, once in the state directory. */
export const CONFIG_FILES = ['settings.json', 'pairs.json'] as const;

const exists = (p: string): boolean => statSync(p, { throwIfNoEntry: false }) !== undefined;

/** Moves one file; across volumes, a copy that is complete before the original goes. */
function moveFile(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    copyFileSync(from, to);
    unlinkSync(from);
  }
}

/** What moved, for the log (written once the logger is open in its new place). */
export interface Moved {
  from: string;
  to: string;
}

/**
 * Moves what earlier versions left in `places.state` to its place. Returns what moved; never
 * throws for a file that cannot move (it stays, and is tried again at the next start).
 * Synchronous: a few renames at start, before anything reads the files or opens a log.
 */
export function moveToPlaces(places: Places): { moved: Moved[]; failed: Moved[] } {
  const moved: Moved[] = [];
  const failed: Moved[] = [];
  const move = (from: string, to: string) => {
    try {
      if (!exists(from) || exists(to)) return;
      mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
      moveFile(from, to);
      moved.push({ from, to });
    } catch {
      failed.push({ from, to });
    }
  };
  if (places.config !== places.state) {
    for (const name of CONFIG_FILES) {
      move(path.join(places.state, name), path.join(places.config, name));
    }
  }
  const oldLogs = path.join(places.state, 'logs');
  if (places.logs !== oldLogs) {
    let names: string[] = [];
    try {
      names = readdirSync(oldLogs);
    } catch {
      // No logs of an earlier version.
    }
    for (const name of names) move(path.join(oldLogs, name), path.join(places.logs, name));
    if (names.length > 0) {
      try {
        rmdirSync(oldLogs);
      } catch {
        // Something could not move: the folder stays with it.
      }
    }
  }
  return { moved, failed };
}

/** Says in the log what `moveToPlaces` did. */
export function logMoves(log: Logger, result: { moved: Moved[]; failed: Moved[] }): void {
  for (const m of result.moved) log.info('moved to its place', { ...m });
  for (const m of result.failed) {
    log.warn('could not move to its place: left where it was, tried again at the next start', {
      ...m,
    });
  }
}
