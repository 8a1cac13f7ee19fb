// A placeholder's double-click and the file managers' files-on-demand entries where the app is
// installed (`--open PATH`, `--files ACTION PATH…`, args.ts): done by the app's own engine of
// the pair, no other process involved; a download is answered once the file is here, and an
// opened file's real path given back for the app to open.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { PLACEHOLDER_SUFFIX } from '../../shared/placeholder';
import { onDemandDone, onDemandStateOf, type OnDemandOp, type SyncEngine } from '../engine';
import { isInside } from '../links/pair-lookup';
import { fail } from './errors';

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

interface Located {
  pairId: string;
  root: string;
  /** '/'-separated, relative to the pair's folder; a placeholder's path names its file. */
  rel: string;
}

function locate(p: string, pairs: PairsForOpen): Located {
  const real = realOf(p);
  const roots = pairs.list().map((x) => ({ id: x.id, root: realOrSelf(x.dir) }));
  const pair = roots
    .filter((x) => isInside(real, x.root) && real !== x.root)
    .sort((a, b) => b.root.length - a.root.length)[0];
  if (!pair) return fail('not-found', { key: 'cli.files.err.outside', params: { path: p } });
  let rel = path.relative(pair.root, real).split(path.sep).join('/');
  if (rel.endsWith(PLACEHOLDER_SUFFIX)) rel = rel.slice(0, -PLACEHOLDER_SUFFIX.length);
  return { pairId: pair.id, root: pair.root, rel };
}

/**
 * `op` on `paths` through each one's pair's engine. A refusal (unsent changes, a name in the
 * way) rejects with the engine's words; a download (or a pin, which downloads) resolves once
 * the files are here, and rejects in words when the rounds that should have brought them did not.
 */
export async function onDemandAt(
  op: OnDemandOp,
  paths: readonly string[],
  pairs: PairsForOpen,
): Promise<Located[]> {
  const located = paths.map((p) => locate(p, pairs));
  const byPair = new Map<string, Located[]>();
  for (const l of located) byPair.set(l.pairId, [...(byPair.get(l.pairId) ?? []), l]);
  for (const [pairId, here] of byPair) {
    const engine = pairs.engineOf(pairId);
    const { journal } = engine.opts;
    const rels = here.map((l) => l.rel);
    // Already here: nothing to ask (a pin is asked all the same: it keeps what comes later).
    const online = (rel: string) => (onDemandStateOf(journal, rel)?.online ?? 1) > 0;
    if (op === 'download' && !rels.some(online)) continue;
    const outcome = await onDemandDone(engine, journal, op, rels);
    if (outcome.kind !== 'done') {
      const name = path.posix.basename(rels.find(online) ?? rels[0]!);
      fail('conflict', { key: 'app.open.notYet', params: { name } });
    }
  }
  return located;
}

/**
 * Downloads the file of `p` (a placeholder `NAME.wsync`, or its real name) and resolves with
 * the file's real path once it is here.
 */
export async function downloadAt(p: string, pairs: PairsForOpen): Promise<string> {
  const [l] = await onDemandAt('download', [p], pairs);
  return path.join(l!.root, ...l!.rel.split('/'));
}

function realOrSelf(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return dir;
  }
}
