import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { askWalk } from '../../src/main/sync/loop/context';
import { PARTIAL_DIR } from '../../src/main/sync/paths';
import { startSandbox } from '../../src/service/sandbox';
import {
  TempDirs,
  clientFor,
  localTree,
  openPair,
  range,
  remoteTree,
  sha,
  tokenOf,
} from './harness';
import { startStandIn } from './stand-in';
import { runCli, type CliRun } from '../cli/run-cli';

// One bad item never blocks the rest: a name that is not valid UTF-8, a download cut short. Each
// becomes a problem for that item (reason in words, tried again later) while the rest syncs.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

/**
 * `workspace-sync ARGS` as a child. Run as root (CI), it runs without the capabilities that let
 * root read any file, so that a file of mode 000 is as unreadable to it as to a person.
 */
function runCliAsPerson(args: string[], env: Record<string, string>): Promise<CliRun> {
  const under =
    process.getuid?.() === 0 ? ['setpriv', '--bounding-set', '-dac_override,-dac_read_search'] : [];
  return runCli(args, { env, under });
}

/** `dir/<bytes>`: a path whose last name is raw bytes (not necessarily valid UTF-8). */
const rawPath = (dir: string, ...bytes: number[][]) =>
  Buffer.concat([Buffer.from(dir), ...bytes.flatMap((b) => [Buffer.from('/'), Buffer.from(b)])]);

describe('a local name that is not valid UTF-8', () => {
  it.runIf(process.platform === 'linux')(
    'is a problem naming it as shown, and the rest syncs',
    async () => {
      const sb = await startSandbox({ seed: 'empty' });
      try {
        const owner = sb.users.find((u) => u.role === 'Administrator')!;
        const dir = path.join(dirs.make(), 'Workspace');
        mkdirSync(path.join(dir, 'docs'), { recursive: true });
        writeFileSync(path.join(dir, 'a.txt'), 'a');
        writeFileSync(path.join(dir, 'docs', 'b.txt'), 'b');
        // docs/f\xffo.txt, and a folder \xfe\xfe holding a file.
        writeFileSync(rawPath(path.join(dir, 'docs'), [0x66, 0xff, 0x6f, 0x2e, 0x74]), 'bad');
        mkdirSync(rawPath(dir, [0xfe, 0xfe]));
        writeFileSync(rawPath(dir, [0xfe, 0xfe], [0x63]), 'inside');

        const pair = await openPair(sb, clientFor(sb.baseUrl, tokenOf(owner)), dirs, { dir });
        const said: string[] = [];
        pair.engine.on('problem', (p) => said.push(p.path));
        try {
          await pair.engine.syncOnce();
          expect([...remoteTree(sb).keys()].sort()).toEqual(['a.txt', 'docs', 'docs/b.txt']);
          const problems = pair.engine.status().problems;
          expect(problems.map((p) => [p.path, p.reason]).sort()).toEqual([
            ['docs/f\uFFFDo.t', 'name'],
            ['\uFFFD\uFFFD', 'name'],
          ]);
          for (const p of problems) expect(p.message).toMatch(/not valid UTF-8.*rename it/);
          expect(problems.find((p) => p.path === '\uFFFD\uFFFD')!.message).toContain(
            'nothing in it is synced',
          );

          // Still there at the next full scan (said once), and nothing else changes.
          await pair.engine.syncOnce();
          expect(pair.engine.status().problems).toHaveLength(2);
          expect(said).toHaveLength(2);
          expect(remoteTree(sb).size).toBe(3);
        } finally {
          await pair.close();
        }
      } finally {
        await sb.close();
      }
    },
  );
});

describe('a download whose Content-Length exceeds its body', () => {
  it('is a problem for that file, the other 44 are placed, and it resumes later', async () => {
    const sb = await startSandbox({ seed: 'empty' });
    const owner = sb.users.find((u) => u.role === 'Administrator')!;
    // The service's files, put there by another computer.
    const source = path.join(dirs.make(), 'Workspace');
    mkdirSync(path.join(source, 'many'), { recursive: true });
    for (const i of range(44)) writeFileSync(path.join(source, 'many', `f${i}.txt`), `file ${i}`);
    const big = Buffer.alloc(300_000, 'x');
    writeFileSync(path.join(source, 'many', 'cut.bin'), big);
    const uploader = await openPair(sb, clientFor(sb.baseUrl, tokenOf(owner)), dirs, {
      dir: source,
    });
    await uploader.engine.syncOnce();
    await uploader.close();
    const cutId = sb.sandbox.db
      .prepare(`SELECT id FROM items WHERE filename = 'cut.bin'`)
      .pluck()
      .get() as number;

    // A server that says 300,000 bytes, sends 100,000 and ends the connection; no archives.
    let cutting = true;
    const ranges: (string | undefined)[] = [];
    const standIn = await startStandIn(sb.baseUrl, {
      answer: (req, res, url) => {
        if (/\/folders\/\d+\/archive$/.test(url.pathname)) {
          res.writeHead(501).end();
          return true;
        }
        if (url.pathname.endsWith(`/download/${cutId}`)) ranges.push(req.headers.range);
        if (!cutting || !url.pathname.endsWith(`/download/${cutId}`)) return false;
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-length': big.length,
        });
        res.write(big.subarray(0, 100_000), () => res.destroy());
        return true;
      },
    });
    const pair = await openPair(
      { baseUrl: standIn.baseUrl, workspaceId: sb.workspaceId },
      clientFor(standIn.baseUrl, tokenOf(owner), { maxAttempts: 1 }),
      dirs,
    );
    try {
      const summary = await pair.engine.syncOnce();
      expect(summary.filesDownloaded).toBe(44);
      const tree = localTree(pair.dir);
      for (const i of range(44)) expect(tree.has(`many/f${i}.txt`)).toBe(true);
      expect(tree.has('many/cut.bin')).toBe(false);
      const problems = pair.engine.status().problems;
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatchObject({ path: 'many/cut.bin', remoteId: cutId });
      expect(problems[0]!.message).toMatch(/cut off after .* tried again/);
      // What came is kept, to be resumed.
      const part = path.join(pair.dir, PARTIAL_DIR, `${cutId}.part`);
      expect(statSync(part).size).toBe(100_000);

      // The next walk (every 10 minutes) tries again, from where it was cut.
      cutting = false;
      askWalk(pair.journal, { kind: 'asked' });
      await pair.engine.syncOnce();
      expect(ranges.at(-1)).toBe('bytes=100000-');
      expect(readFileSync(path.join(pair.dir, 'many', 'cut.bin')).equals(big)).toBe(true);
      expect(pair.engine.status().problems).toEqual([]);
    } finally {
      await pair.close();
      await standIn.close();
      await sb.close();
    }
  });
});

describe('a local file that cannot be read', () => {
  it.runIf(process.platform !== 'win32')(
    'is a problem for that file; the others are uploaded, and it goes up once readable',
    async () => {
      const sb = await startSandbox({ seed: 'empty' });
      try {
        const owner = sb.users.find((u) => u.role === 'Administrator')!;
        const dir = path.join(dirs.make(), 'Workspace');
        mkdirSync(path.join(dir, 'docs'), { recursive: true });
        for (const i of range(20)) writeFileSync(path.join(dir, 'docs', `f${i}.txt`), `file ${i}`);
        const locked = path.join(dir, 'docs', 'locked.txt');
        writeFileSync(locked, 'private');
        chmodSync(locked, 0o000);
        const args = ['sync', '--once', '--json', '--merge', '--server', sb.baseUrl];
        args.push('--workspace', String(sb.workspaceId), '--dir', dir);
        args.push('--state', dirs.make('wsync-state-'));
        const env = { WORKSPACE_SYNC_TOKEN: owner.token };

        const first = await runCliAsPerson(args, env);
        expect(first.code, first.stderr + first.stdout).toBe(0);
        const lines = first.stdout
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        expect(lines.filter((l) => l.type === 'problem')).toEqual([
          expect.objectContaining({
            path: 'docs/locked.txt',
            reason: 'local',
            message: expect.stringContaining('cannot be read (permission denied)') as unknown,
          }),
        ]);
        expect(lines.at(-1)).toMatchObject({ type: 'summary', uploaded: 20, problems: 1 });
        expect(remoteTree(sb).size).toBe(21);
        expect(remoteTree(sb).has('docs/locked.txt')).toBe(false);

        // Readable again: the next run sends it, and the problem is over.
        chmodSync(locked, 0o644);
        const second = await runCliAsPerson(args, env);
        expect(second.code, second.stderr + second.stdout).toBe(0);
        expect(second.stdout.trimEnd().split('\n').at(-1)).toContain('"problems":0');
        expect(remoteTree(sb).get('docs/locked.txt')).toBe(sha('private'));
      } finally {
        await sb.close();
      }
    },
  );
});

describe('uploads the role refuses', () => {
  it('are a problem each, even when the service answers before reading the body', async () => {
    // The sandbox, like many servers, refuses an upload from its headers and closes the
    // connection: a body still being read from disk then met a closed socket (EPIPE), and the
    // pass failed with "whether the change was made is unknown" instead of the refusal.
    const sb = await startSandbox({ seed: 'empty' });
    try {
      const kenji = sb.users.find((u) => u.role === 'Collaborator')!;
      const ann = clientFor(sb.baseUrl, tokenOf(sb.users.find((u) => u.role === 'Administrator')!));
      let rolemap: number | undefined;
      for await (const r of ann.listRolemaps(sb.workspaceId)) {
        if (r.user_id === kenji.id || r.user?.id === kenji.id) rolemap = r.id;
      }
      const pair = await openPair(sb, clientFor(sb.baseUrl, tokenOf(kenji)), dirs);
      try {
        await pair.engine.syncOnce();
        await ann.changeRole(rolemap!, 'Downloader');
        for (const i of range(30)) writeFileSync(path.join(pair.dir, `${i}.txt`), `note ${i}\n`);
        await pair.engine.syncOnce();
        expect(
          pair.engine
            .status()
            .problems.map((p) => [p.path, p.reason])
            .sort(),
        ).toEqual(
          range(30)
            .map((i) => [`${i}.txt`, 'not-permitted'])
            .sort(),
        );
      } finally {
        await pair.close();
      }
    } finally {
      await sb.close();
    }
  });
});

describe('a synced folder this computer may not write into', () => {
  it.runIf(process.platform !== 'win32')(
    'is a problem for what the service put there; the other files are placed',
    async () => {
      const sb = await startSandbox({ seed: 'empty' });
      try {
        const owner = sb.users.find((u) => u.role === 'Administrator')!;
        const client = clientFor(sb.baseUrl, tokenOf(owner));
        const root = (await client.rootFolder(sb.workspaceId)).id;
        const locked = await client.createFolder(sb.workspaceId, root, 'locked');
        const dir = path.join(dirs.make(), 'Workspace');
        const args = ['sync', '--once', '--json', '--server', sb.baseUrl];
        args.push('--workspace', String(sb.workspaceId), '--dir', dir);
        args.push('--state', dirs.make('wsync-state-'));
        const env = { WORKSPACE_SYNC_TOKEN: owner.token };
        const first = await runCliAsPerson(args, env);
        expect(first.code, first.stderr + first.stdout).toBe(0);

        // The folder made read-only here; the service puts a file into it, and 10 beside it.
        chmodSync(path.join(dir, 'locked'), 0o555);
        const put = (folder: number, name: string) =>
          client.uploadFile(folder, name, () => Readable.from([Buffer.from(name)]));
        await put(locked.id, 'inside.txt');
        for (const i of range(10)) await put(root, `f${i}.txt`);
        try {
          const second = await runCliAsPerson(args, env);
          expect(second.code, second.stderr + second.stdout).toBe(0);
          const lines = second.stdout
            .trimEnd()
            .split('\n')
            .map((l) => JSON.parse(l) as Record<string, unknown>);
          expect(lines.filter((l) => l.type === 'problem')).toEqual([
            expect.objectContaining({
              path: 'locked/inside.txt',
              reason: 'local',
              message: expect.stringMatching(/locked\/inside\.txt/) as unknown,
            }),
          ]);
          expect(lines.at(-1)).toMatchObject({ type: 'summary', filesDownloaded: 10, problems: 1 });
          for (const i of range(10)) {
            expect(readFileSync(path.join(dir, `f${i}.txt`), 'utf8')).toBe(`f${i}.txt`);
          }
        } finally {
          chmodSync(path.join(dir, 'locked'), 0o755);
        }
      } finally {
        await sb.close();
      }
    },
  );
});

describe('a synced folder whose files cannot be looked at', () => {
  it.runIf(process.platform !== 'win32')(
    'is a problem for each of them, and none is taken for deleted',
    async () => {
      const sb = await startSandbox({ seed: 'empty' });
      try {
        const owner = sb.users.find((u) => u.role === 'Administrator')!;
        const dir = path.join(dirs.make(), 'Workspace');
        mkdirSync(path.join(dir, 'docs'), { recursive: true });
        writeFileSync(path.join(dir, 'docs', 'a.txt'), 'a');
        writeFileSync(path.join(dir, 'docs', 'b.txt'), 'b');
        const args = ['sync', '--once', '--json', '--merge', '--server', sb.baseUrl];
        args.push('--workspace', String(sb.workspaceId), '--dir', dir);
        args.push('--state', dirs.make('wsync-state-'));
        const env = { WORKSPACE_SYNC_TOKEN: owner.token };
        const first = await runCliAsPerson(args, env);
        expect(first.code, first.stderr + first.stdout).toBe(0);
        expect(remoteTree(sb).size).toBe(3);

        // Listed but not searchable: its names are seen, its files cannot be looked at.
        chmodSync(path.join(dir, 'docs'), 0o444);
        writeFileSync(path.join(dir, 'new.txt'), 'new');
        try {
          const second = await runCliAsPerson(args, env);
          expect(second.code, second.stderr + second.stdout).toBe(0);
          const lines = second.stdout
            .trimEnd()
            .split('\n')
            .map((l) => JSON.parse(l) as Record<string, unknown>);
          const problems = lines.filter((l) => l.type === 'problem');
          expect(problems.map((l) => [l.path, l.reason]).sort()).toEqual([
            ['docs/a.txt', 'local'],
            ['docs/b.txt', 'local'],
          ]);
          expect(problems[0]!.message).toMatch(/cannot be looked at \(permission denied\)/);
          const remote = remoteTree(sb);
          expect([...remote.keys()].sort()).toEqual([
            'docs',
            'docs/a.txt',
            'docs/b.txt',
            'new.txt',
          ]);
        } finally {
          chmodSync(path.join(dir, 'docs'), 0o755);
        }
      } finally {
        await sb.close();
      }
    },
  );
});
