// `npm run -s soak -- --runs N [--seed S] [--path P]`: random histories of the whole engine.
// `npm run -s soak -- --replay NAME` (or `all`): the written histories of histories.ts instead
// (any other --replay is the commands' replay path printed with a failing random history).
// `--weights swap=2,recreate=1,long=2,deep=0,ondemand=4`: issue 37's steps by weight (0 leaves
// one out); issue 41's files-on-demand steps, `ondemand` entries of their own.
// The last line is one JSON object of the figures; the exit code is 1 when an invariant broke.
import { parseArgs } from 'node:util';
import { HISTORIES, historiesNamed } from './histories';
import { parseWeights } from './commands';
import { replayHistory, runSoak } from './soak';
import type { Sabotage } from './world';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '100' },
    seed: { type: 'string' },
    path: { type: 'string' },
    replay: { type: 'string' },
    commands: { type: 'string', default: '30' },
    sabotage: { type: 'string', default: 'none' },
    scope: { type: 'string', default: 'all' },
    weights: { type: 'string', default: '' },
    'no-shrink': { type: 'boolean', default: false },
    log: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
  },
});

const int = (name: string, v: string | undefined, fallback: number) => {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isSafeInteger(n)) {
    console.error(`soak: --${name} ${v}: expected an integer`);
    process.exit(2);
  }
  return n;
};
if (!['none', 'no-intent-check', 'no-conflict-check'].includes(values.sabotage)) {
  console.error(
    `soak: --sabotage ${values.sabotage}: expected none, no-intent-check or no-conflict-check`,
  );
  process.exit(2);
}

if (values.scope !== 'all' && values.scope !== 'case-sensitive' && values.scope !== 'emulated') {
  console.error(`soak: --scope ${values.scope}: expected all, case-sensitive or emulated`);
  process.exit(2);
}

const weights = parseWeights(values.weights);
if (!weights) {
  console.error(
    `soak: --weights ${values.weights}: expected NAME=N,... with names swap, recreate, long, deep, ondemand`,
  );
  process.exit(2);
}

const written = values.replay === undefined ? undefined : historiesNamed(values.replay);
if (written) {
  const started = Date.now();
  let failed = 0;
  for (const h of written) {
    const { findings, steps, log } = await replayHistory(h, { log: values.log });
    const broken = [
      ...findings.divergences.map((d) => `divergence: ${d}`),
      ...findings.lost.map((d) => `lost: ${d}`),
      ...findings.duplicates.map((d) => `duplicate: ${d}`),
    ];
    if (broken.length === 0) {
      if (!values.quiet) console.error(`ok   ${h.name} (${steps.length} steps)`);
      continue;
    }
    failed++;
    console.error(`FAIL ${h.name}: ${h.title}\n${broken.join('\n')}`);
    console.error(`the history:\n${steps.map((s) => `  ${s}`).join('\n')}`);
    if (values.log) console.error(log.join('\n'));
  }
  console.error(`soak: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(JSON.stringify({ replayed: written.length, failed }));
  process.exit(failed > 0 ? 1 : 0);
} else if (values.replay !== undefined && /^[a-z]+(?:-[a-z]+)+$/.test(values.replay)) {
  // A history's name, mistyped: not a replay path (those have no dashes).
  console.error(
    `soak: --replay ${values.replay}: no such history (all, or one of: ${HISTORIES.map((h) => h.name).join(', ')})`,
  );
  process.exit(2);
}

const seed = int('seed', values.seed, Math.floor(Math.random() * 2 ** 31));
const runs = int('runs', values.runs, 100);
const started = Date.now();
console.error(
  `soak: ${runs} histories from seed ${seed}${values.path ? ` (path ${values.path})` : ''}`,
);
const result = await runSoak({
  runs,
  seed,
  path: values.path,
  replay: values.replay,
  maxCommands: int('commands', values.commands, 30),
  sabotage: values.sabotage as Sabotage,
  scope: values.scope,
  weights,
  shrink: !values['no-shrink'],
  log: values.log,
  progress: values.quiet ? undefined : (line) => console.error(line),
});
if (result.failure) {
  const f = result.failure;
  console.error(`\nsoak: an invariant broke (seed ${f.seed})`);
  console.error(f.findings);
  console.error(`\nthe history, shrunk:\n${f.history}`);
  console.error(
    `\nreplay it: npm run -s soak -- --runs 1 --seed ${f.seed} --path ${f.path} --replay '${f.replay}'` +
      (values.scope !== 'all' ? ` --scope ${values.scope}` : '') +
      (values.commands !== '30' ? ` --commands ${values.commands}` : '') +
      (values.weights !== '' ? ` --weights ${values.weights}` : '') +
      (values.sabotage !== 'none' ? ` --sabotage ${values.sabotage}` : ''),
  );
}
console.error(`soak: ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(JSON.stringify({ soak: result.figures }));
const { divergences, lost, duplicates } = result.figures;
process.exit(divergences + lost + duplicates > 0 || result.failure ? 1 : 0);
