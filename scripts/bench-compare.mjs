#!/usr/bin/env node
// Compares benchmarks between a base commit and this checkout:
//
//   node scripts/bench-compare.mjs --base REF NAME [NAME ...] [--rounds N] [--keep]
//                                  [--threshold PCT] [--verbose] [-- EXTRA ARGS]
//
// Checks REF out as a detached git worktree in $TMPDIR/ws-bench-base-<sha> (reused when it is
// already there), with node_modules symlinked to this checkout's, and removes it at the end
// (`git worktree remove --force`) unless --keep. For each NAME it runs `npm run -s bench -- NAME
// [EXTRA ARGS]` in the base checkout and in this one, alternating (base, current, base, current,
// ... for N rounds, default 1) so that machine noise hits both alike, and reads the last JSON
// line each run prints. The runs are sequential, never two at once. EXTRA ARGS (after `--`) are
// for benches that take options; none in bench/ does yet (their sizes are constants in each
// *.bench.ts, and bench/run.ts reads every other word as a bench name).
//
// Prints a table per bench (field, kind, base, current, change %; with N > 1 also each side's
// runs) and, as its very last line, one JSON object
//   {"NAME": {"FIELD": {"base": x, "current": y, "change": pct}, ...}, ...}
// where a numeric field is the median of each side over the rounds and `change` is
// (current - base) / |base| in percent (null when base is 0 and current is not, or for text).
// `wall_s` is added per bench: the seconds one run took, spawn to exit.
//
// A numeric field whose change exceeds the threshold (default 5%) is flagged: `COUNT` for a
// count of requests, calls or polls (a change past the threshold is a change of behaviour; below
// it, `count differs`: traffic's converge_after_* counts move by one or two between runs of the
// same code, as B's polls fall differently against the upload or the burst), `noise?`
// for times, ratios of times, memory and requests counted over a window of wall time, such as
// `requests_during_bulk` (compare with the noise of two runs of the same code, e.g. `--base
// HEAD`, before reading anything into it), `CHANGED` for anything else (sizes, settings).
// A text field that differs is marked `differs`. Exit status: 0, or 1 if a run failed, 2 on
// bad arguments.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, lstatSync, realpathSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const here = path.resolve(import.meta.dirname, '..');

function usage(message) {
  if (message) console.error(`bench-compare: ${message}`);
  console.error(
    'usage: node scripts/bench-compare.mjs --base REF NAME [NAME ...] [--rounds N] [--keep] ' +
      '[--threshold PCT] [--verbose] [-- EXTRA BENCH ARGS]',
  );
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { base: '', names: [], rounds: 1, keep: false, threshold: 5, verbose: false };
  const dash = argv.indexOf('--');
  opts.extra = dash >= 0 ? argv.slice(dash + 1) : [];
  const args = dash >= 0 ? argv.slice(0, dash) : argv;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = () => {
      const v = args[++i];
      if (v === undefined) usage(`${a} needs a value`);
      return v;
    };
    if (a === '--base') opts.base = value();
    else if (a === '--rounds') opts.rounds = Number(value());
    else if (a === '--threshold') opts.threshold = Number(value());
    else if (a === '--keep') opts.keep = true;
    else if (a === '--verbose' || a === '-v') opts.verbose = true;
    else if (a === '--help' || a === '-h') usage();
    else if (a.startsWith('-')) usage(`unknown option ${a}`);
    else opts.names.push(a);
  }
  if (!opts.base) usage('--base REF is required');
  if (opts.names.length === 0) usage('name at least one bench');
  if (!Number.isInteger(opts.rounds) || opts.rounds < 1) usage('--rounds takes an integer >= 1');
  if (!Number.isFinite(opts.threshold) || opts.threshold < 0) usage('--threshold takes a number');
  return opts;
}

const git = (args, cwd = here) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The base checkout: a detached worktree of `sha`, reused when it is already there. */
function checkoutBase(sha) {
  const dir = path.join(tmpdir(), `ws-bench-base-${sha.slice(0, 12)}`);
  let reuse = false;
  if (existsSync(dir)) {
    try {
      reuse = git(['rev-parse', 'HEAD'], dir) === sha && git(['status', '--porcelain'], dir) === '';
    } catch {
      reuse = false;
    }
    if (!reuse) {
      removeBase(dir);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (!reuse) {
    // --force: also when the directory went away without `git worktree remove`.
    git(['worktree', 'add', '--force', '--detach', dir, sha]);
  }
  const link = path.join(dir, 'node_modules');
  const target = realpathSync(path.join(here, 'node_modules'));
  let linked = false;
  try {
    linked = lstatSync(link).isSymbolicLink() && realpathSync(link) === target;
  } catch {
    linked = false;
  }
  if (!linked) {
    rmSync(link, { recursive: true, force: true });
    symlinkSync(target, link, 'dir');
  }
  return { dir, reused: reuse };
}

function removeBase(dir) {
  // The symlink first, so that nothing can follow it into the shared node_modules.
  try {
    if (lstatSync(path.join(dir, 'node_modules')).isSymbolicLink()) {
      unlinkSync(path.join(dir, 'node_modules'));
    }
  } catch {
    // not there
  }
  try {
    git(['worktree', 'remove', '--force', dir]);
  } catch (err) {
    console.error(`bench-compare: git worktree remove ${dir}: ${err.message}`);
  }
}

let running;

/** Runs one bench in `cwd`; resolves with its figures, its wall time and its output. */
function runBench(cwd, name, extra) {
  return new Promise((resolve) => {
    const started = performance.now();
    // Its own process group, so that an interrupt can stop the bench and all its children.
    const child = spawn('npm', ['run', '-s', 'bench', '--', name, ...extra], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running = child;
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (err) => (out += `\n${err.message}`));
    child.on('close', (code, signal) => {
      running = undefined;
      const wallS = Math.round((performance.now() - started) / 100) / 10;
      const line = out
        .split('\n')
        .map((l) => l.trim())
        .reverse()
        .find((l) => l.startsWith('{'));
      let figures;
      try {
        figures = line ? JSON.parse(line) : undefined;
      } catch {
        figures = undefined;
      }
      if (code !== 0 || !figures) {
        resolve({ error: `exit ${code ?? signal}${figures ? '' : ', no JSON line'}`, wallS, out });
      } else {
        resolve({ figures, wallS, out });
      }
    });
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * count: deterministic counts of requests; timed: requests counted over a window of wall time
 * (polls while an upload runs), which follow the clock; time and memory: noisy; other: sizes,
 * settings.
 */
function kindOf(field) {
  if (/rss|heap|memory/.test(field)) return 'memory';
  if (/(^|_)(ms|s)(_|$)|_p\d\d(_|$)|_vs_|ratio|per_s(_|$)/.test(field)) return 'time';
  if (/_during_/.test(field)) return 'timed';
  if (/requests|calls|polls/.test(field)) return 'count';
  return 'other';
}

function changePct(base, current) {
  if (base === current) return 0;
  if (base === 0) return null;
  return Math.round(((current - base) / Math.abs(base)) * 1000) / 10;
}

function fmt(x) {
  if (typeof x !== 'number') return String(x);
  return Number.isInteger(x) ? String(x) : String(Math.round(x * 100) / 100);
}

function clip(s, n) {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** Per field: the medians (numbers) or the last value (text) of each side, and the change. */
function compare(baseRuns, currentRuns, threshold) {
  const fields = [];
  for (const runs of [baseRuns, currentRuns]) {
    for (const r of runs) for (const f of Object.keys(r)) if (!fields.includes(f)) fields.push(f);
  }
  const rows = [];
  const json = {};
  for (const field of fields.filter((f) => f !== 'bench')) {
    const b = baseRuns.map((r) => r[field]);
    const c = currentRuns.map((r) => r[field]);
    const numeric = [...b, ...c].every((v) => typeof v === 'number' && Number.isFinite(v));
    const kind = kindOf(field);
    if (numeric) {
      const base = median(b);
      const current = median(c);
      const change = changePct(base, current);
      json[field] = { base, current, change };
      const over = change === null || Math.abs(change) > threshold;
      let flag = '';
      if (over) flag = kind === 'count' ? 'COUNT' : kind === 'other' ? 'CHANGED' : 'noise?';
      else if (kind === 'count' && change !== 0) flag = 'count differs';
      rows.push({
        field,
        kind,
        base: fmt(base),
        current: fmt(current),
        change: change === null ? 'n/a' : `${change > 0 ? '+' : ''}${change.toFixed(1)}%`,
        flag,
        baseRuns: b.map(fmt).join(' / '),
        currentRuns: c.map(fmt).join(' / '),
      });
    } else {
      const base = b.at(-1);
      const current = c.at(-1);
      json[field] = { base: base ?? null, current: current ?? null, change: null };
      const same = b.every((v) => v === current) && c.every((v) => v === current);
      rows.push({
        field,
        kind: 'text',
        base: clip(String(base), 40),
        current: clip(String(current), 40),
        change: '',
        flag: same ? '' : 'differs',
        baseRuns: '',
        currentRuns: '',
      });
    }
  }
  return { rows, json };
}

function printTable(rows, withRuns) {
  const cols = ['field', 'kind', 'base', 'current', 'change', 'flag'];
  if (withRuns) cols.push('baseRuns', 'currentRuns');
  const head = { baseRuns: 'base runs', currentRuns: 'current runs' };
  const width = cols.map((c) => Math.max((head[c] ?? c).length, ...rows.map((r) => r[c].length)));
  const line = (cells) =>
    cells
      .map((s, i) => (i >= 2 && i <= 4 ? s.padStart(width[i]) : s.padEnd(width[i])))
      .join('  ')
      .trimEnd();
  console.log(line(cols.map((c) => head[c] ?? c)));
  console.log(line(width.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(cols.map((c) => r[c])));
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let sha;
  try {
    sha = git(['rev-parse', '--verify', `${opts.base}^{commit}`]);
  } catch {
    usage(`cannot resolve ${opts.base} to a commit`);
  }
  const currentSha = git(['rev-parse', 'HEAD']);
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
  const { dir: baseDir, reused } = checkoutBase(sha);
  for (const [side, dir] of [
    ['base', baseDir],
    ['current', here],
  ]) {
    const missing = opts.names.filter((n) => !existsSync(path.join(dir, 'bench', `${n}.bench.ts`)));
    if (missing.length > 0) {
      if (!opts.keep) removeBase(baseDir);
      usage(`no bench/${missing.join('.bench.ts, bench/')}.bench.ts in the ${side} checkout`);
    }
  }
  console.error(
    `base    ${opts.base} = ${sha.slice(0, 12)} in ${baseDir}${reused ? ' (reused)' : ''}\n` +
      `current ${currentSha.slice(0, 12)}${dirty ? ' + uncommitted changes' : ''} in ${here}\n` +
      `${opts.rounds} round(s), alternating base/current; threshold ${opts.threshold}%`,
  );

  let cleaned = false;
  const cleanup = () => {
    if (cleaned) return;
    cleaned = true;
    if (opts.keep) console.error(`bench-compare: kept ${baseDir}`);
    else removeBase(baseDir);
  };
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.on(sig, () => {
      if (running?.pid) {
        try {
          process.kill(-running.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      cleanup();
      process.exit(130);
    });
  }

  const result = {};
  let failed = false;
  try {
    for (const name of opts.names) {
      const sides = { base: [], current: [] };
      const walls = { base: [], current: [] };
      for (let round = 1; round <= opts.rounds && !failed; round++) {
        for (const [side, cwd] of [
          ['base', baseDir],
          ['current', here],
        ]) {
          const r = await runBench(cwd, name, opts.extra);
          const what = `${name} ${side.padEnd(7)} round ${round}/${opts.rounds}`;
          if (opts.verbose) process.stderr.write(r.out);
          if (r.error) {
            console.error(`${what}: FAILED (${r.error}) after ${r.wallS} s\n${r.out.slice(-4000)}`);
            failed = true;
            break;
          }
          console.error(`${what}: ${r.wallS} s`);
          sides[side].push({ ...r.figures, wall_s: r.figures.wall_s ?? r.wallS });
          walls[side].push(r.wallS);
        }
      }
      if (failed) break;
      const { rows, json } = compare(sides.base, sides.current, opts.threshold);
      result[name] = json;
      const flagged = rows.filter((r) => r.flag && r.flag !== 'count differs');
      console.log(
        `\n${name}: base ${sha.slice(0, 12)} vs current ${currentSha.slice(0, 12)}` +
          `${dirty ? '+' : ''}, ${opts.rounds} round(s), wall ${median(walls.base)} s / ` +
          `${median(walls.current)} s`,
      );
      printTable(rows, opts.rounds > 1);
      const counts = flagged.filter((r) => r.flag === 'COUNT').length;
      console.log(
        flagged.length === 0
          ? `no numeric field moved more than ${opts.threshold}%`
          : `${flagged.length} field(s) past ${opts.threshold}%` +
              (counts > 0 ? `, of which ${counts} request count(s): a change of behaviour` : '') +
              (flagged.length > counts
                ? '; times/memory: compare with the noise of HEAD vs HEAD'
                : ''),
      );
    }
  } finally {
    cleanup();
  }
  console.log(JSON.stringify(result));
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err?.stack ?? String(err));
    process.exit(1);
  },
);
