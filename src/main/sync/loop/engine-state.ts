import type { Language } from '../../../shared/i18n';
import type { IgnoreRules } from '../detect-local/ignore';
import type { LocalWatcher } from '../detect-local/watch';
import type { Logger } from '../ports';
import type { LoopContext } from './context';
import type { LocalPass } from './local-pass';
import type { EngineOptions } from './options';
import type { RemoteDeleteAnswer } from './remote-guard';
import type { RemotePass } from './remote-pass';
import type { PassState } from './state';
import type { StatusModel } from './status';

/** The passes and what they work with, once the root is known (the loop's `prepare`). */
export interface Passes {
  ctx: LoopContext;
  remote: RemotePass;
  local: LocalPass;
}

/**
 * What the engine's two halves share, in one typed object: the person's actions (engine.ts),
 * applied between passes, write it; the loop (engine-loop.ts) reads it at its next step. Nothing
 * else of either half is seen by the other.
 */
export interface EngineState {
  readonly opts: EngineOptions;
  readonly log: Logger;
  readonly status: StatusModel;
  /** What the passes share with each other (`dirty` is marked by actions too). */
  readonly pass: PassState;
  paused: boolean;
  /** The person confirmed the deletes the guard held back (given to a local pass made later). */
  confirmed: boolean;
  /** An answer to held remote deletions given before the passes exist. */
  remoteAnswer: RemoteDeleteAnswer | null;
  /** The words of conflict copies (`setLanguage`). */
  language: Language;
  pollIntervalMs: number;
  /** Gitignore lines beyond the root's ignore file (the app's settings; `setExtraIgnore`). */
  extraIgnore: readonly string[];
  /** The ignore rules as last loaded; null to load them again. */
  ignore: IgnoreRules | null;
  /** null until the loop starts one (again, after new ignore rules or a new selection). */
  watcher: LocalWatcher | null;
  passes: Passes | null;
  /** The workspace is gone (state `gone`): only Retry now or the slow check wakes the loop. */
  gone: boolean;
}

export function engineState(
  opts: EngineOptions,
  log: Logger,
  status: StatusModel,
  pass: PassState,
): EngineState {
  return {
    opts,
    log,
    status,
    pass,
    paused: false,
    confirmed: opts.confirmDeletes ?? false,
    remoteAnswer: null,
    language: opts.language ?? 'en',
    pollIntervalMs: opts.pollIntervalMs ?? 5_000,
    extraIgnore: [],
    ignore: null,
    watcher: null,
    passes: null,
    gone: false,
  };
}
