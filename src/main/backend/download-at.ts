// A placeholder's double-click where the app is installed (`--open PATH`, args.ts): the file is
// downloaded by the running pair's engine (the CLI's `files open` would refuse: two engines on
// one pair would race), and its real path given back for the app to open.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { SyncStatus } from '../../shared/sync-status';
import { PLACEHOLDER_SUFFIX } from '../../shared/placeholder';
import { onDemandStateOf, type SyncEngine } from '../engine';
import { isInside } from '../links/pair-lookup';
import { fail } from './errors';

/** The states where no round runs until something changes: the download waits for later. */
const STOPPED: ReadonlySet<SyncStatus['state']> = new Set(['paused', 'offline', 'error', 'gone']);

export interface PairsForOpen {
  list(): { id: string; dir: string }[];
  engineOf(id: string): SyncEngine;
}

/** `p` through links (its folder: a placeholder's file is not on disk yet). */
function realOf(p: string): string {
  const abs = path.resolve(p);
  try {
    return path.join(realpathSync.native(path.dirname(abs)), path.basename(abs));
  } catch {
    return fail('not-found', { key: 'cli.err.notExist', params: { path: abs } });
  }
}

/**
 * Downloads the file of `p` (a placeholder `NAME.wsync`, or its real name) through its pair's
 * engine, and resolves with the file's real path once it is here. Rejects in words: outside
 * every pair, refused by the engine, or not here after the rounds that should have brought it.
 */
export async function downloadAt(p: string, pairs: PairsForOpen): Promise<string> {
  const real = realOf(p);
  const roots = pairs.list().map((x) => ({ id: x.id, root: realOrSelf(x.dir) }));
  const pair = roots
    .filter((x) => isInside(real, x.root) && real !== x.root)
    .sort((a, b) => b.root.length - a.root.length)[0];
  if (!pair) return fail('not-found', { key: 'cli.files.err.outside', params: { path: p } });
  let rel = path.relative(pair.root, real).split(path.sep).join('/');
  if (rel.endsWith(PLACEHOLDER_SUFFIX)) rel = rel.slice(0, -PLACEHOLDER_SUFFIX.length);
  const engine = pairs.engineOf(pair.id);
  const { journal } = engine.opts;
  const here = () => {
    const st = onDemandStateOf(journal, rel);
    return st !== undefined && st.kind === 'file' && st.online === 0;
  };
  if (!here()) {
    await engine.filesOnDemand('download', [rel]);
    if (!(await downloaded(engine, here)))
      fail('conflict', { key: 'app.open.notYet', params: { name: path.posix.basename(rel) } });
  }
  return path.join(pair.root, ...rel.split('/'));
}

function realOrSelf(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return dir;
  }
}

/**
 * Resolves true once `here()` holds after a round of the engine; false when the pair stops
 * syncing for now (paused, offline, failing) or two rounds ended without it: the round under way
 * when the action came may have been past its remote pass, the next one fetches it.
 */
function downloaded(engine: SyncEngine, here: () => boolean): Promise<boolean> {
  return new Promise((resolve) => {
    let rounds = 0;
    const finish = (done: boolean) => {
      engine.off('settled', onSettled);
      engine.off('status', onStatus);
      resolve(done);
    };
    const onSettled = () => {
      if (here()) finish(true);
      else if (++rounds >= 2) finish(false);
    };
    const onStatus = (s: SyncStatus) => {
      if (STOPPED.has(s.state)) finish(here());
    };
    engine.on('settled', onSettled);
    engine.on('status', onStatus);
    if (here()) finish(true);
    else onStatus(engine.status());
  });
}
