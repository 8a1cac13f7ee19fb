import { execFileSync } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import type { RunningSandbox } from '../../src/service/sandbox';
import { TempDirs, localTree, remoteTree, settledUntil, type Pair } from './harness';
import { closeBoth, pairWithSandbox } from './sandbox-pair';

// Local → service in continuous mode: the disk is driven the way people do (shell commands, an
// editor's save), and the service must end equal to the disk.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

let sb: RunningSandbox;
let client: ServiceClient;
let pair: Pair;
let stop: AbortController;
let running: Promise<void>;

const sh = (script: string) => execFileSync('sh', ['-c', script], { cwd: pair.dir });

const same = (a: Map<string, string>, b: Map<string, string>) =>
  a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

/** Resolves once a settled round finds the service equal to the disk (less what `skip` says). */
const converged = (skip: (rel: string) => boolean = () => false) =>
  settledUntil(pair.engine, () => {
    const disk = new Map([...localTree(pair.dir)].filter(([rel]) => !skip(rel)));
    return same(disk, remoteTree(sb));
  });

/** The requests that changed something on the service since the last reset. */
function mutations(): Record<string, number> {
  return Object.fromEntries(
    Object.entries(sb.stats()).filter(([k]) => !k.startsWith('GET ') && !k.includes('oauth')),
  );
}

async function start(extensions = true): Promise<void> {
  ({ sb, client, pair } = await pairWithSandbox(dirs, {
    sandbox: { extensions },
    pair: { pollIntervalMs: 20 },
  }));
  stop = new AbortController();
  const ready = settledUntil(pair.engine, () => true);
  running = pair.engine.run(stop.signal);
  await ready;
}

async function finish(): Promise<void> {
  stop.abort();
  await running;
  await closeBoth(pair, sb);
}

describe('two-way sync, continuous, with the move extension', () => {
  beforeEach(() => start());
  afterEach(() => finish());

  it('mkdir -p of a deep tree, files in it, then rm -rf of part of it', async () => {
    sh('mkdir -p a/b/c/d/e/f/g && echo one > a/b/one.txt && echo two > a/b/c/d/e/two.txt');
    await converged();
    expect(remoteTree(sb).get('a/b/c/d/e/f/g')).toBe('dir');
    sh('mkdir -p keep && echo k > keep/k.txt');
    await converged();
    sh('rm -rf a/b/c');
    await converged();
    expect(remoteTree(sb).has('a/b/c')).toBe(false);
    expect(remoteTree(sb).has('a/b/one.txt')).toBe(true);
  });

  it('mv of folders within and across parents: one call each, contents follow', async () => {
    sh('mkdir -p src/big dst && for i in $(seq 1 10); do mkdir src/big/d$i; done');
    sh('for i in $(seq 1 10); do for j in $(seq 1 99); do echo $i$j > src/big/d$i/f$j; done; done');
    await converged();
    expect(remoteTree(sb).size).toBe(3 + 10 + 990);
    sb.resetStats();
    sh('mv src/big dst/moved');
    await converged();
    expect(mutations()).toEqual({ 'PUT /folders/:id': 1 });
    sb.resetStats();
    sh('mv dst/moved dst/renamed');
    await converged();
    expect(mutations()).toEqual({ 'PUT /folders/:id': 1 });
    expect(remoteTree(sb).get('dst/renamed/d7/f42')).toBeDefined();
  });

  it('a folder moved while things inside it changed: one move, then what changed inside', async () => {
    sh(
      'mkdir -p projects/alpha/docs && echo a > projects/alpha/a.txt && echo b > projects/alpha/docs/b.txt',
    );
    await converged();
    sb.resetStats();
    // Stopped: the startup scan sees all of it at once.
    stop.abort();
    await running;
    sh('mkdir archive && mv projects/alpha archive/alpha && rm archive/alpha/a.txt');
    sh('echo c > archive/alpha/docs/c.txt && mkdir archive/alpha/new');
    stop = new AbortController();
    running = pair.engine.run(stop.signal);
    await converged();
    expect(mutations()).toEqual({
      'POST /workspaces/:workspace_id/folders/:folder_id/folders': 2,
      'PUT /folders/:id': 1,
      'DELETE /files/:id': 1,
      'POST /folders/:id/files': 1,
    });
    expect([...remoteTree(sb).keys()].sort()).toEqual([
      'archive',
      'archive/alpha',
      'archive/alpha/docs',
      'archive/alpha/docs/b.txt',
      'archive/alpha/docs/c.txt',
      'archive/alpha/new',
      'projects',
    ]);
  });

  it("an editor's save through a temporary file is a new version of the same file", async () => {
    writeFileSync(path.join(pair.dir, 'notes.txt'), 'first draft');
    await converged();
    const id = pair.journal.items.atPath('notes.txt')!.remoteId;
    writeFileSync(path.join(pair.dir, '.notes.txt.swp'), 'second draft, longer');
    renameSync(path.join(pair.dir, '.notes.txt.swp'), path.join(pair.dir, 'notes.txt'));
    await converged();
    expect(pair.journal.items.atPath('notes.txt')!.remoteId).toBe(id);
    const file = await client.getFile(id);
    expect(file.size).toBe('second draft, longer'.length);
  });

  it('a case-only rename', async () => {
    sh('mkdir Report && echo x > Report/x.txt && echo r > Notes.md');
    await converged();
    sh('mv Report report && mv Notes.md notes.md');
    await converged();
    expect([...remoteTree(sb).keys()].sort()).toEqual(['notes.md', 'report', 'report/x.txt']);
  });

  it('a burst of 1,000 new folders', async () => {
    sh('mkdir burst && cd burst && for i in $(seq 1 1000); do mkdir f$i; done');
    await converged();
    expect(remoteTree(sb).size).toBe(1001);
    expect(mutations()['POST /workspaces/:workspace_id/folders/:folder_id/folders']).toBe(1001);
  });

  it('files written while syncing are uploaded once they settle, ignored names never', async () => {
    sh('mkdir docs && echo a > docs/a.txt && echo t > docs/x.tmp && echo d > .DS_Store');
    sh('echo lock > "docs/~\\$report.docx"');
    await converged((rel) => /(\.tmp|\.DS_Store|~\$report\.docx)$/.test(rel));
    const remote = remoteTree(sb);
    expect(remote.has('docs/a.txt')).toBe(true);
    expect(remote.has('docs/x.tmp')).toBe(false);
    expect(remote.has('.DS_Store')).toBe(false);
  });
});

describe('two-way sync without the move extension', () => {
  beforeEach(() => start(false));
  afterEach(() => finish());

  it('moves by copying, deleting the source only after the copy, and says so', async () => {
    sh('mkdir -p a/inner b && echo 1 > a/inner/one && echo 2 > a/two');
    await converged();
    sh('mv a b/a');
    await converged();
    expect([...remoteTree(sb).keys()].sort()).toEqual([
      'b',
      'b/a',
      'b/a/inner',
      'b/a/inner/one',
      'b/a/two',
    ]);
    expect(
      pair.engine
        .status()
        .notices.map((c) => c.message)
        .join('\n'),
    ).toMatch(/cannot move/);
  });
});
