import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ServiceClient } from '../../src/main/api/client';
import type { RunningSandbox } from '../../src/service/sandbox';
import { clientFor, tokenOf } from '../sync/harness';
import { runCli } from './run-cli';

// What the `link` and `integrate` tests share: a synced folder with a few items made through
// the API, a private X server for the clipboard, and a reader of that clipboard.

export interface SyncedFolder {
  dir: string;
  state: string;
  token: string;
  client: ServiceClient;
  ids: Record<string, { kind: 'file' | 'folder'; id: number }>;
}

/**
 * Items with names that test quoting (spaces, quotes, $, %, &, non-ASCII; a backslash would be
 * mapped to a fullwidth one locally, so the tests put theirs in the sync folder's name).
 */
export const NAMES = {
  folder: 'Q3 Reports',
  file: 'summary.txt',
  odd: `it's "odd" $HOME & 50% café.txt`,
};

/**
 * Creates a folder and two files in the sandbox's workspace as `user`, then syncs the workspace
 * into `dir` with `sync --once` (a real CLI run, with a pasted token).
 */
export async function syncedFolder(
  sb: RunningSandbox,
  opts: { dir: string; state: string; user?: number; create?: boolean },
): Promise<SyncedFolder> {
  const user = sb.users[opts.user ?? 0]!;
  const client = clientFor(sb.baseUrl, tokenOf(user));
  const ids: SyncedFolder['ids'] = {};
  const root = await client.rootFolder(sb.workspaceId);
  ids[''] = { kind: 'folder', id: root.id };
  if (opts.create !== false) {
    const folder = await client.createFolder(sb.workspaceId, root.id, NAMES.folder);
    ids[NAMES.folder] = { kind: 'folder', id: folder.id };
    const upload = (parent: number, name: string, text: string) =>
      client.uploadFile(
        parent,
        name,
        () => Readable.from([Buffer.from(text)]),
        Buffer.byteLength(text),
      );
    const file = await upload(folder.id, NAMES.file, 'the numbers\n');
    ids[`${NAMES.folder}/${NAMES.file}`] = { kind: 'file', id: file.id };
    const odd = await upload(folder.id, NAMES.odd, 'odd\n');
    ids[`${NAMES.folder}/${NAMES.odd}`] = { kind: 'file', id: odd.id };
  }
  const run = await runCli([
    'sync',
    '--once',
    '--server',
    sb.baseUrl,
    '--token',
    user.token,
    '--workspace',
    String(sb.workspaceId),
    '--dir',
    opts.dir,
    '--state',
    opts.state,
  ]);
  if (run.code !== 0) throw new Error(`sync --once failed: ${run.stderr}`);
  return { dir: opts.dir, state: opts.state, token: user.token, client, ids };
}

/** The absolute share URL the service gives for an item: base URL + the link's public path. */
export async function urlOf(
  sb: RunningSandbox,
  client: ServiceClient,
  item: { kind: 'file' | 'folder'; id: number },
): Promise<string> {
  const link = await client.getLink(item.kind, item.id);
  return sb.baseUrl + link.link;
}

export const local = (folder: SyncedFolder, rel: string) =>
  path.join(folder.dir, ...rel.split('/'));

export interface Xvfb {
  display: string;
  stop(): Promise<void>;
}

/**
 * A private X server on a free display (Xvfb picks it and writes its number on fd 3 once it
 * accepts connections). Its clipboard owners (xclip in the background) end with it.
 */
export function startXvfb(): Promise<Xvfb> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'Xvfb',
      ['-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', '320x240x24'],
      {
        stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.once('error', (err) =>
      reject(new Error(`Xvfb could not start (${err.message}): install xvfb (and xclip).`)),
    );
    let out = '';
    const fd3 = child.stdio[3] as Readable;
    fd3.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('\n')) return;
      resolve({
        display: `:${out.trim()}`,
        stop: async () => {
          child.kill();
          await exited;
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`Xvfb exited (${code}): ${stderr}`)));
  });
}

/** What the X clipboard holds, read the way a person's paste does (xclip -o). */
export function readClipboard(display: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('xclip', ['-o', '-selection', 'clipboard'], {
      env: { ...process.env, DISPLAY: display },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`xclip -o: ${err}`)),
    );
  });
}

/**
 * A notify-send of our own, first on PATH: it records each notification's arguments (joined
 * by "|"), one record per call, so that a test sees what the desktop was asked to show.
 */
export function fakeNotifySend(dir: string): { path: string; shown(): string[] } {
  const bin = path.join(dir, 'fake-bin');
  const file = path.join(dir, 'notifications');
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    path.join(bin, 'notify-send'),
    `#!/bin/sh\nprintf '%s|' "$@" >> '${file}'\nprintf '\\0' >> '${file}'\n`,
    { mode: 0o755 },
  );
  return {
    path: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
    shown: () => (existsSync(file) ? readFileSync(file, 'utf8').split('\0').slice(0, -1) : []),
  };
}
