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
import { notHereWords, onDemandDone } from './on-demand-done';

// The pair's door (core/pair-door.ts) as the engine answers it: a person's Download now, Always
// keep or Free up space from a file manager, a double-click on a placeholder, while this process
// runs the pair. The action goes through the inbox like the window's, and the answer waits for
// the round that does it, so "Downloaded" is said only once the file is here.

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
  try {
    const outcome = await onDemandDone(engine, journal, request.op, request.paths);
    switch (outcome.kind) {
      case 'done':
        return { kind: 'done' };
      case 'slow':
        return { kind: 'later', words: { key: 'engine.door.slow' } };
      case 'not-here':
        return { kind: 'later', words: notHereWords(outcome) };
      case 'stopped':
        return outcome.state === 'paused'
          ? { kind: 'later', words: { key: 'engine.door.paused' } }
          : {
              kind: 'later',
              words: {
                key: 'engine.door.failed',
                params: { why: engine.status().words ?? engine.status().message },
              },
            };
    }
  } catch (err) {
    const words = wordsOf(err);
    if (err instanceof AttentionError && words) return { kind: 'refused', words };
    const why = err instanceof Error ? err.message : String(err);
    return { kind: 'later', words: words ?? { key: 'engine.door.failed', params: { why } } };
  }
}
