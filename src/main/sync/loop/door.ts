import {
  doorPath,
  holdDoor,
  type DoorAnswer,
  type DoorRequest,
  type HeldDoor,
} from '../../core/pair-door';
import type { Journal } from '../../journal/journal';
import { wordsOf } from '../../../shared/i18n';
import { AttentionError, SyncFatalError } from '../errors';
import type { SyncEngine } from './engine';
import { onDemandStateOf } from './on-demand-actions';

// The pair's door (core/pair-door.ts) as the engine answers it: a person's Download now, Always
// keep or Free up space from a file manager, a double-click on a placeholder, while this process
// runs the pair. The action goes through the inbox like the window's, and the answer waits for
// the round that does it, so "Downloaded" is said only once the file is here.

/** How long a knock waits for its round (a large download) before it is told it goes on. */
const ROUND_MS = 10 * 60_000;

/** What answers at the door: the engine once it is made (until then, knock again). */
export interface DoorKeeper {
  engine: SyncEngine | null;
  journal: Journal | null;
}

/** Takes the pair's door before its journal is opened; a live holder means another engine runs it. */
export async function takeDoor(
  journalFile: string,
  dir: string,
  keeper: DoorKeeper,
): Promise<HeldDoor> {
  const held = await holdDoor(doorPath(journalFile), (request) => answer(keeper, request));
  if (held === 'held')
    throw new SyncFatalError('busy', { key: 'engine.pairBusy', params: { dir } });
  return held;
}

async function answer(keeper: DoorKeeper, request: DoorRequest): Promise<DoorAnswer> {
  const { engine, journal } = keeper;
  if (!engine || !journal) return { kind: 'again' };
  const done = engine.filesOnDemandDone(request.op, request.paths);
  if (engine.paused) {
    // Applied (a pin, a free), but no round runs until the person resumes.
    done.catch(() => undefined);
    return { kind: 'later', words: { key: 'engine.door.paused' } };
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ROUND_MS);
  });
  try {
    if ((await Promise.race([done, late])) === 'late') {
      done.catch(() => undefined);
      return { kind: 'later', words: { key: 'engine.door.slow' } };
    }
  } catch (err) {
    const words = wordsOf(err);
    if (err instanceof AttentionError && words) return { kind: 'refused', words };
    return {
      kind: 'later',
      words: words ?? {
        key: 'engine.door.failed',
        params: { why: err instanceof Error ? err.message : String(err) },
      },
    };
  } finally {
    clearTimeout(timer);
  }
  return notHere(journal, request) ?? { kind: 'done' };
}

/** After its round, a download that did not happen (a problem of that file) is said. */
function notHere(journal: Journal, request: DoorRequest): DoorAnswer | null {
  if (request.op !== 'download' && request.op !== 'pin') return null;
  for (const rel of request.paths) {
    const st = onDemandStateOf(journal, rel);
    if (st && st.online > 0) {
      return { kind: 'later', words: { key: 'engine.door.notHere', params: { path: rel } } };
    }
  }
  return null;
}
