import fc from 'fast-check';
import { defaultProfile, type VolumeProfile } from '../../src/main/sync/names';
import {
  historyArbitrary,
  type NewStepWeights,
  type SoakCommand,
  type SoakScope,
} from './commands';
import { checkAtQuiescence, type Findings } from './invariants';
import { World, type Figures, type Sabotage, type WorldConfig } from './world';

export interface SoakOptions {
  runs: number;
  seed: number;
  /** fast-check's path of a failing (shrunk) history, to replay exactly that one. */
  path?: string;
  /** The commands' own replay path (printed with a failing history as replayPath). */
  replay?: string;
  maxCommands?: number;
  /** 'case-sensitive' leaves out what differs only by case or normalization (commands.ts). */
  scope?: SoakScope;
  sabotage?: Sabotage;
  /** Issue 37's steps by weight (commands.ts); their defaults when not given. */
  weights?: NewStepWeights;
  /** The engines' log of the first failing history, on stderr. */
  log?: boolean;
  /** Shrink a failing history to a small one (each step replays a history). */
  shrink?: boolean;
  progress?: (line: string) => void;
}

export interface SoakFigures extends Figures {
  divergences: number;
  lost: number;
  duplicates: number;
}

export interface SoakResult {
  figures: SoakFigures;
  /** The failing history, shrunk, with what to type to replay it. */
  failure?: { seed: number; path: string; replay: string; history: string; findings: string };
}

class InvariantBroken extends Error {
  constructor(readonly findings: Findings) {
    super(
      [
        ...findings.divergences.map((d) => `divergence: ${d}`),
        ...findings.lost.map((d) => `lost: ${d}`),
        ...findings.duplicates.map((d) => `duplicate: ${d}`),
      ].join('\n'),
    );
  }
}

const POSIX: VolumeProfile = {
  flavor: 'posix',
  caseInsensitive: false,
  normalizationInsensitive: false,
};
/** Windows' name rules (reserved characters and names are mapped) on this case-sensitive disk. */
const WIN32_NAMES: VolumeProfile = {
  flavor: 'win32',
  caseInsensitive: false,
  normalizationInsensitive: false,
};
/*
 * Case-insensitive profiles can only be emulated here: the engine compares names as the profile
 * says, but the disk (ext4) does not fold its own writes, so it can reach states a real Windows
 * or macOS volume cannot (a folder `Plan.md` made beside a file `plan.md`). Only `--scope
 * emulated` uses them; a failure found there is checked against a real volume's behaviour first.
 */
const WIN32 = defaultProfile('win32');
const MAC = defaultProfile('darwin');

/** A written history (histories.ts): its setting, and its steps built afresh for each replay. */
export interface WrittenHistory {
  name: string;
  /** The case it came from (test/soak/regressions.test.ts), as its test was named. */
  title: string;
  /** The server's move extension (the soak draws it): on unless the history says. */
  extensions?: boolean;
  /** Client B's volume (the soak draws it): the plain Linux one unless the history says. */
  profileB?: VolumeProfile;
  steps: () => SoakCommand[];
}

/** What a written history's replay found: the invariants' findings (its own checks included). */
export interface Replayed {
  findings: Findings;
  /** The steps as run, one label each. */
  steps: string[];
  log: string[];
}

/**
 * Replays a written history as the soak runs its random ones: a fresh sandbox and folders, each
 * step against the world, then quiescence and the invariants. What the history's own checks
 * found broken comes out with the divergences.
 */
export async function replayHistory(
  h: WrittenHistory,
  opts: { log?: boolean } = {},
): Promise<Replayed> {
  const figures: Figures = {
    histories: 0,
    operations: 0,
    crashes: 0,
    faults: 0,
    conflicts: 0,
    selections: 0,
    onDemand: 0,
    placeholders: 0,
    asked: 0,
  };
  const world = await World.create(
    {
      extensions: h.extensions ?? true,
      profileB: h.profileB ?? POSIX,
      sabotage: 'none',
      log: opts.log ?? false,
    },
    figures,
  );
  try {
    figures.histories++;
    const steps = h.steps();
    await fc.asyncModelRun(() => ({ model: world.ledger, real: world }), steps);
    const findings = await checkAtQuiescence(world);
    return { findings, steps: steps.map(String), log: world.logLines };
  } finally {
    await world.dispose();
  }
}

/** Runs `runs` random histories (or replays one), each against a fresh sandbox and fresh folders. */
export async function runSoak(opts: SoakOptions): Promise<SoakResult> {
  const figures: SoakFigures = {
    histories: 0,
    operations: 0,
    crashes: 0,
    faults: 0,
    conflicts: 0,
    selections: 0,
    onDemand: 0,
    placeholders: 0,
    asked: 0,
    divergences: 0,
    lost: 0,
    duplicates: 0,
  };
  // Once a history failed, the runs that follow are fast-check shrinking it: not counted.
  let failed = false;
  let logShown = false;
  const scratch: Figures = {
    histories: 0,
    operations: 0,
    crashes: 0,
    faults: 0,
    conflicts: 0,
    selections: 0,
    onDemand: 0,
    placeholders: 0,
    asked: 0,
  };
  const setting = fc.record({
    extensions: fc.boolean(),
    profileB:
      opts.scope === 'case-sensitive'
        ? fc.constant(POSIX)
        : opts.scope === 'emulated'
          ? fc.constantFrom(POSIX, WIN32_NAMES, WIN32, MAC)
          : fc.constantFrom(POSIX, WIN32_NAMES),
  });
  const property = fc.asyncProperty(
    setting,
    historyArbitrary(opts.maxCommands ?? 30, opts.replay, opts.scope, opts.weights),
    async (s, history) => {
      const counted = failed ? scratch : figures;
      const config: WorldConfig = {
        ...s,
        sabotage: opts.sabotage ?? 'none',
        log: opts.log ?? false,
      };
      const world = await World.create(config, counted);
      try {
        counted.histories++;
        await fc.asyncModelRun(() => ({ model: world.ledger, real: world }), history);
        const findings = await checkAtQuiescence(world);
        counted.conflicts += world.clients.reduce((n, c) => n + c.conflicts, 0);
        const bad =
          findings.divergences.length + findings.lost.length + findings.duplicates.length > 0;
        if (bad && !failed) {
          figures.divergences += findings.divergences.length > 0 ? 1 : 0;
          figures.lost += findings.lost.length;
          figures.duplicates += findings.duplicates.length;
        }
        if (bad) {
          failed = true;
          throw new InvariantBroken(findings);
        }
        opts.progress?.(
          `history ${figures.histories}: ${[...history].length} steps, extensions ${s.extensions ? 'on' : 'off'}, B ${s.profileB.flavor}${s.profileB.caseInsensitive ? ' case-insensitive' : ''}`,
        );
      } catch (err) {
        // The log of the first failing history only: shrinking replays many more.
        if (opts.log && !logShown) {
          logShown = true;
          process.stderr.write(world.logLines.join('\n') + '\n');
        }
        if (!(err instanceof InvariantBroken) && !failed) {
          // SOAK_STACK=1: where the harness or the engine threw (a deep chain's names shortened).
          if (process.env.SOAK_STACK) console.error((err as Error).stack?.replace(/d{20,}/g, 'd…'));
          failed = true;
          figures.divergences++;
        }
        throw err;
      } finally {
        await world.dispose();
      }
    },
  );
  const details = await fc.check(property, {
    numRuns: opts.runs,
    seed: opts.seed,
    ...(opts.path ? { path: opts.path } : {}),
    endOnFailure: opts.shrink === false,
  });
  if (!details.failed) return { figures };
  const [setup, history] = details.counterexample ?? [];
  const error = details.errorInstance;
  const shown = String(history);
  const replay = /replayPath="([^"]*)"/.exec(shown)?.[1] ?? '';
  return {
    figures,
    failure: {
      seed: details.seed,
      path: details.counterexamplePath ?? '',
      replay,
      history: [
        JSON.stringify(setup),
        ...shown
          .replace(/\s*\/\*replayPath=.*\*\/$/, '')
          .split(',')
          .map((step) => `  ${step}`),
      ].join('\n'),
      findings: error instanceof Error ? error.message : String(error),
    },
  };
}
