import { realpathSync, type Stats } from 'node:fs';
import type { Methods } from '../../shared/app-api';
import { isInsideRoot, resolveRelativeUnderRoot, type PathFlavor } from '../../shared/paths';
import type { SyncStatus } from '../../shared/sync-status';
import { AttentionError, Confined, SwapError } from '../engine';
import type { z } from 'zod';
import { failOpen } from './open-failed';
import { fail, failWith } from './errors';
import type { Pairs } from './pairs';
import type { Handlers } from './handlers/context';

type Params<M extends keyof typeof Methods> = z.output<(typeof Methods)[M]['params']>;

/** The paths of a pair the window may open: those its status lists, nothing else. */
function listedPaths(status: SyncStatus): Set<string> {
  const paths = new Set<string>();
  for (const c of status.conflicts) {
    paths.add(c.path);
    if (c.copy !== undefined) paths.add(c.copy);
  }
  for (const p of status.problems) if (p.path !== '') paths.add(p.path);
  return paths;
}

/**
 * A listed path of the pair, as an absolute path inside its folder: refused when it is not
 * listed, climbs out (`..`, absolute), is gone, or leads out through a link.
 */
export function resolveListed(pairs: Pairs, pairId: string, rel: string): string {
  const root = pairs.dirOf(pairId);
  if (!listedPaths(pairs.engineOf(pairId).status()).has(rel))
    return fail('invalid', { key: 'backend.notListed' });
  return resolveInsideRoot(root, rel);
}

/**
 * A relative path of a pair's folder as an absolute path inside it: refused when it climbs out
 * (`..`, absolute), is gone, leads out through a link, or is reached through a link at all.
 */
export function resolveInsideRoot(root: string, rel: string): string {
  const flavor: PathFlavor = process.platform === 'win32' ? 'win32' : 'posix';
  let abs: string;
  let real: string;
  try {
    abs = resolveRelativeUnderRoot(root, rel, flavor);
  } catch {
    return fail('invalid', { key: 'backend.notInside', params: { path: rel } });
  }
  try {
    real = realpathSync.native(abs);
  } catch {
    return fail('not-found', { key: 'backend.goneFromFolder', params: { path: rel } });
  }
  if (!isInsideRoot(realpathSync.native(root), real, flavor))
    return fail('invalid', { key: 'backend.leadsOutside', params: { path: rel } });
  // Looked at again, right before it is handed over, through the folders opened from the root
  // without following links (confined.ts): a link anywhere on the way, or the item a link, is
  // refused, even one that leads inside (the engine syncs no links: a link at a listed path is
  // something put there since, perhaps by a process exchanging it back and forth).
  const confined = new Confined(root, (r) =>
    r === '' ? root : resolveRelativeUnderRoot(root, r, flavor),
  );
  let st: Stats | undefined;
  try {
    const names = rel.split(flavor === 'win32' ? /[\\/]/ : '/');
    st = confined.lstat(names.filter((n) => n !== '' && n !== '.').join('/'));
  } catch (err) {
    if (!(err instanceof SwapError)) throw err;
    return fail('invalid', { key: 'backend.throughLink', params: { path: rel } });
  }
  if (!st) return fail('not-found', { key: 'backend.goneFromFolder', params: { path: rel } });
  if (st.isSymbolicLink())
    return fail('invalid', { key: 'backend.throughLink', params: { path: rel } });
  return abs;
}

/** The engine's refusal of an action, as the window's error. */
function asAppError(err: unknown): never {
  if (err instanceof AttentionError)
    failWith(
      err.kind === 'stale' ? 'conflict' : err.kind === 'gone' ? 'not-found' : 'invalid',
      err,
    );
  throw err;
}

/**
 * The window's methods on conflicts and problems (app-api.ts): open or show a listed file, carry
 * out a person's choice for a conflict, retry or dismiss a problem, each through the pair's engine.
 */
export function attentionHandlers(deps: {
  pairs: Pairs;
  open: (file: string) => Promise<void>;
  show: (file: string) => Promise<void>;
}): Pick<Handlers, 'pairs.openItem' | 'pairs.settleConflict' | 'pairs.problem'> {
  const { pairs } = deps;
  return {
    'pairs.openItem': async (p: Params<'pairs.openItem'>) => {
      const file = resolveListed(pairs, p.pairId, p.path);
      try {
        await (p.how === 'open' ? deps.open(file) : deps.show(file));
      } catch (err) {
        failOpen(err, file, 'item');
      }
      return null;
    },
    'pairs.settleConflict': async (p: Params<'pairs.settleConflict'>) => {
      await pairs.engineOf(p.pairId).chooseForConflict(p.conflictId, p.keep).catch(asAppError);
      return null;
    },
    'pairs.problem': async (p: Params<'pairs.problem'>) => {
      const engine = pairs.engineOf(p.pairId);
      const done = p.action === 'retry' ? engine.retryProblem(p.key) : engine.dismissProblem(p.key);
      await done.catch(asAppError);
      return null;
    },
  };
}
