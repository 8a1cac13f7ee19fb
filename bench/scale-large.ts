import { execFile, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { link, mkdir, mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { ServiceClient } from '../src/main/api/client';
import { openSession } from '../src/main/api/oauth';
import { spawnSandbox, type SandboxProcess } from '../src/service/child';
import { runJsonChild } from './lib';
import type { EngineArgs, EngineLine } from './mirror-util';

// One large file through the sync engine against `curl` on the same sandbox, so that the
// server's cost is the same on both sides: up (a `syncOnce` of a folder holding the file, vs
// `curl -F`) and down (a `syncOnce` of an empty folder, vs `curl -o`). The engine runs in a child
// process of its own (mirror-engine.ts), so its peak RSS is its own; the sandbox in another. Runs
// are interleaved (engine, curl, engine, curl...) so that the noise of a shared machine hits
// both alike, and the best of ROUNDS is kept. curl does not hash and the engine must: the floor
// with hashing (curl with openssl's sha256 of the same bytes, `curlHashed`) is measured in the
// same rounds, for a second pair of ratios. Everything lives in one temporary directory, removed
// at the end, failure or not.

const MiB = 1024 * 1024;
const ROUNDS = 3;
const CURL = '/usr/bin/curl';
const TIME = '/usr/bin/time';
const ENGINE_FILE = path.join(import.meta.dirname, 'mirror-engine.ts');
const repoRoot = path.resolve(import.meta.dirname, '..');

/**
 * The engine child as the app runs its code: bundled by esbuild (like scripts/build.mjs) and run
 * by plain node, so that its memory is the engine's and not the TypeScript loader's (tsx alone
 * takes the process past 120 MB). Inside the repository, so that its packages resolve; named
 * by process, as other worktrees share node_modules.
 */
async function bundleEngine(): Promise<string> {
  const outfile = path.join(
    repoRoot,
    `node_modules/.cache/workspace-sync-bench/large-engine-${process.pid}.mjs`,
  );
  await build({
    entryPoints: [ENGINE_FILE],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
  return outfile;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Writes `size` bytes of random-looking content quickly: one random block, numbered per copy. */
async function makeFile(file: string, size: number): Promise<void> {
  const block = randomBytes(16 * MiB);
  const fh = await open(file, 'w');
  try {
    for (let at = 0, n = 0; at < size; at += block.length, n++) {
      block.writeUInt32BE(n, 0); // no two blocks alike: nothing along the way can dedupe them
      await fh.write(block, 0, Math.min(block.length, size - at), at);
    }
  } finally {
    await fh.close();
  }
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 4 * MiB })) {
    hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

/**
 * Runs curl under /usr/bin/time: its transfer time (`%{time_total}`) and the CPU time it took
 * (user and system), which on a busy machine says more than the wall clock.
 */
function curl(args: string[]): Promise<{ ms: number; cpuMs: number }> {
  return new Promise((resolve, reject) => {
    execFile(
      TIME,
      ['-f', 'cpu %U %S', CURL, '-sS', '--fail', '-w', '%{time_total}', ...args],
      { maxBuffer: MiB },
      (err, stdout, stderr) => {
        const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
        if (err || !cpu) reject(new Error(`curl failed: ${stderr || err?.message}`));
        else {
          resolve({
            ms: Math.round(Number(stdout.trim()) * 1000),
            cpuMs: Math.round((Number(cpu[1]) + Number(cpu[2])) * 1000),
          });
        }
      },
    );
  });
}

const OPENSSL = '/usr/bin/openssl';

/**
 * The floor with hashing: curl and a sha256 of the same bytes, as a shell does it at best, the
 * time from the start of the shell to its end (a few ms of process starts included). Down:
 * `curl | tee FILE | openssl dgst -sha256` (the bytes hashed as they come and written, as the
 * engine does). Up: `curl -F` and `openssl dgst -sha256` of the file side by side (two reads of
 * it: the engine reads once). openssl, not sha256sum: coreutils' sha256sum uses no SHA
 * instructions (~3 s per GiB here, against ~0.6 s), so it would be no floor. The hash printed is
 * returned, to be checked.
 */
function curlHashed(script: string, env: Record<string, string>): Promise<Run & { hash: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    execFile(
      TIME,
      ['-f', 'cpu %U %S', '/bin/bash', '-c', `set -eo pipefail; ${script}`],
      { maxBuffer: MiB, env: { ...process.env, ...env } },
      (err, stdout, stderr) => {
        const ms = Math.round(performance.now() - started);
        const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
        const hash = /([0-9a-f]{64})/.exec(stdout)?.[1];
        if (err || !cpu || !hash) {
          reject(new Error(`curl with a hash failed: ${stderr || err?.message}`));
        } else {
          resolve({ ms, cpuMs: Math.round((Number(cpu[1]) + Number(cpu[2])) * 1000), hash });
        }
      },
    );
  });
}

/** One timed transfer: its wall time and the CPU time of the client doing it. */
interface Run {
  ms: number;
  cpuMs: number;
}

export async function largeFileFigures(
  opts: { sizeBytes?: number; rounds?: number } = {},
): Promise<Record<string, number | string>> {
  const sizeBytes = opts.sizeBytes ?? 1024 * MiB;
  const rounds = opts.rounds ?? ROUNDS;
  const base = await mkdtemp(path.join(tmpdir(), 'workspace-large-bench-'));
  const live = new Set<ChildProcess>();
  let sandbox: SandboxProcess | undefined;
  let engineFile: string | undefined;
  try {
    const engineJs = await bundleEngine();
    engineFile = engineJs;
    const dataDir = path.join(base, 'data');
    await mkdir(dataDir);
    sandbox = await spawnSandbox(['--data', dataDir, '--seed', 'empty']);
    const info = sandbox.info;
    const owner = info.users[0]!;
    const { transport } = openSession({
      baseUrl: info.base_url,
      clientId: info.client_id,
      clientSecret: info.client_secret,
      tokens: { accessToken: owner.token },
    });
    const client = new ServiceClient(transport);
    const auth = `authorization: Bearer ${owner.token}`;

    const source = path.join(base, 'source.bin');
    await makeFile(source, sizeBytes);
    const want = await sha256(source);

    let runs = 0;
    const engine = async (workspaceId: number, files: string[]): Promise<EngineLine> => {
      const where = path.join(base, `engine-${++runs}`);
      const dir = path.join(where, 'dir');
      const stateDir = path.join(where, 'state');
      await mkdir(dir, { recursive: true });
      await mkdir(stateDir);
      // A hard link: the same bytes (and pages in the cache) without a copy.
      for (const f of files) await link(source, path.join(dir, f));
      const line = await runJsonChild<EngineLine>(
        'the engine child',
        [
          engineJs,
          JSON.stringify({
            baseUrl: info.base_url,
            clientId: info.client_id,
            clientSecret: info.client_secret,
            token: owner.token,
            email: owner.email,
            workspaceId,
            dir,
            stateDir,
          } satisfies EngineArgs),
        ],
        live,
      );
      if (line.problems !== 0) throw new Error(`engine run ${runs}: ${JSON.stringify(line.log)}`);
      if (files.length === 0) {
        const got = path.join(dir, 'big.bin');
        if ((await stat(got)).size !== sizeBytes || (await sha256(got)) !== want) {
          throw new Error(`engine run ${runs}: the downloaded file differs from the source`);
        }
      }
      await rm(where, { recursive: true, force: true });
      return line;
    };

    /** The one file of a workspace's root, checked to hold the source's bytes. */
    const stored = async (workspaceId: number): Promise<number> => {
      const root = await client.rootFolder(workspaceId);
      const files: { id: number; size: number }[] = [];
      for await (const e of client.folderContents(root.id)) {
        if (e.kind === 'file') files.push({ id: e.file.id, size: e.file.size });
      }
      if (files.length !== 1 || files[0]!.size !== sizeBytes) {
        throw new Error(`workspace ${workspaceId} holds ${JSON.stringify(files)}`);
      }
      return files[0]!.id;
    };

    const upEngine: Run[] = [];
    const upCurl: Run[] = [];
    const downEngine: Run[] = [];
    const downCurl: Run[] = [];
    const upHashed: Run[] = [];
    const downHashed: Run[] = [];
    const tools = { CURL, OPENSSL, AUTH: auth };
    let upRss = 0;
    let downRss = 0;
    let startRss = 0;
    const ran = (line: EngineLine): Run => ({ ms: line.ms, cpuMs: line.cpu_ms ?? NaN });
    for (let r = 1; r <= rounds; r++) {
      // Up through the engine: a new workspace each time (the file is new there).
      const ws = await client.createWorkspace({ name: `Large up ${r}` });
      const up = await engine(ws.id, ['big.bin']);
      if (up.summary.uploaded !== 1) throw new Error(`upload ${r}: ${JSON.stringify(up.summary)}`);
      upEngine.push(ran(up));
      upRss = Math.max(upRss, up.peak_rss_mb);
      startRss = Math.max(startRss, up.start_rss_mb);
      const fileId = await stored(ws.id);

      // Up through curl, into a workspace of its own.
      const cws = await client.createWorkspace({ name: `Large curl ${r}` });
      const croot = await client.rootFolder(cws.id);
      upCurl.push(
        await curl([
          '-o',
          '/dev/null',
          '-H',
          auth,
          '-F',
          `file=@${source};filename=big.bin;type=application/octet-stream`,
          `${info.base_url}/folders/${croot.id}/files`,
        ]),
      );
      await stored(cws.id);

      // Up with the floor's hash: curl and openssl side by side, into a workspace of its own.
      const hws = await client.createWorkspace({ name: `Large curl+sha256 ${r}` });
      const hroot = await client.rootFolder(hws.id);
      const hup = await curlHashed(
        '"$OPENSSL" dgst -sha256 "$SRC" > "$HASHED" & ' +
          '"$CURL" -sS --fail -o /dev/null -H "$AUTH" -F "file=@$SRC;filename=big.bin;type=application/octet-stream" "$URL"; ' +
          'wait $!; cat "$HASHED"',
        {
          ...tools,
          SRC: source,
          HASHED: path.join(base, 'openssl.out'),
          URL: `${info.base_url}/folders/${hroot.id}/files`,
        },
      );
      if (hup.hash !== want) throw new Error(`openssl's hash of the source differs (${r})`);
      upHashed.push(hup);
      await stored(hws.id);

      // Down through the engine: an empty folder paired with the workspace just uploaded to.
      const down = await engine(ws.id, []);
      if (down.summary.filesDownloaded !== 1) {
        throw new Error(`download ${r}: ${JSON.stringify(down.summary)}`);
      }
      downEngine.push(ran(down));
      downRss = Math.max(downRss, down.peak_rss_mb);

      // Down through curl, of the engine's upload (so its bytes are checked too).
      const out = path.join(base, `curl-${r}.bin`);
      downCurl.push(await curl(['-o', out, '-H', auth, `${info.base_url}/download/${fileId}`]));
      if ((await sha256(out)) !== want) throw new Error(`the engine's upload ${r} differs`);
      await rm(out);

      // Down with the floor's hash: the bytes hashed as they come and written.
      const hout = path.join(base, `curl-sha256-${r}.bin`);
      const hdown = await curlHashed(
        '"$CURL" -sS --fail -H "$AUTH" "$URL" | tee "$OUT" | "$OPENSSL" dgst -sha256',
        { ...tools, OUT: hout, URL: `${info.base_url}/download/${fileId}` },
      );
      if (hdown.hash !== want) throw new Error(`curl | openssl's download ${r} differs`);
      downHashed.push(hdown);
      await rm(hout);
    }
    const best = (runs: Run[]) => Math.min(...runs.map((x) => x.ms));
    const cpu = (runs: Run[]) => Math.min(...runs.map((x) => x.cpuMs));
    const list = (runs: Run[]) => runs.map((x) => x.ms).join('/');
    const label = sizeBytes === 1024 * MiB ? '1gib' : `${Math.round(sizeBytes / MiB)}mib`;
    return {
      [`upload_${label}_ms`]: best(upEngine),
      [`upload_${label}_curl_ms`]: best(upCurl),
      [`upload_${label}_vs_curl`]: round2(best(upEngine) / best(upCurl)),
      [`download_${label}_ms`]: best(downEngine),
      [`download_${label}_curl_ms`]: best(downCurl),
      [`download_${label}_vs_curl`]: round2(best(downEngine) / best(downCurl)),
      // The floor with hashing (curl does not hash; the engine must): the figures above
      // are against curl alone.
      [`upload_${label}_curl_sha256_ms`]: best(upHashed),
      [`upload_${label}_vs_curl_sha256`]: round2(best(upEngine) / best(upHashed)),
      [`download_${label}_curl_sha256_ms`]: best(downHashed),
      [`download_${label}_vs_curl_sha256`]: round2(best(downEngine) / best(downHashed)),
      [`upload_${label}_peak_rss_mb`]: upRss,
      [`download_${label}_peak_rss_mb`]: downRss,
      // Context: the engine child before its sync, and the CPU time each side spent (least of
      // the rounds), which a busy machine disturbs less than the wall clock.
      engine_start_rss_mb: startRss,
      [`upload_${label}_cpu_ms`]: cpu(upEngine),
      [`upload_${label}_curl_cpu_ms`]: cpu(upCurl),
      [`download_${label}_cpu_ms`]: cpu(downEngine),
      [`download_${label}_curl_cpu_ms`]: cpu(downCurl),
      [`upload_${label}_curl_sha256_cpu_ms`]: cpu(upHashed),
      [`download_${label}_curl_sha256_cpu_ms`]: cpu(downHashed),
      [`${label}_runs_ms`]:
        `up ${list(upEngine)} vs curl ${list(upCurl)}; ` +
        `down ${list(downEngine)} vs curl ${list(downCurl)}; ` +
        `curl+sha256 up ${list(upHashed)} down ${list(downHashed)}`,
    };
  } finally {
    for (const child of live) child.kill('SIGKILL');
    await sandbox?.stop();
    await rm(base, { recursive: true, force: true });
    if (engineFile) await rm(engineFile, { force: true });
  }
}
