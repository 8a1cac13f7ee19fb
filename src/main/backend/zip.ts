import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { link, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ServiceClient } from '../api/client';
import { fail } from './errors';

/** Progress pushes at most this often. */
const PROGRESS_MS = 250;

/** A folder's name as a file name: no separators, no control characters, never empty. */
export function zipName(folderName: string, folderId: number): string {
  const cleaned = folderName
    .replace(/[/\\:*?"<>|\p{Cc}]/gu, '-')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 200);
  return `${cleaned || `folder-${folderId}`}.zip`;
}

async function kindOf(p: string): Promise<'dir' | 'file' | null> {
  try {
    return (await stat(p)).isDirectory() ? 'dir' : 'file';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** `~` and `~/…` (or `~\…`) as the person's home folder, the way a shell reads them. */
export function expandHome(p: string, home: string): string {
  if (p === '~') return home;
  return /^~[/\\]/.test(p) ? path.join(home, p.slice(2)) : p;
}

/**
 * Where the zip goes: a new file named after the folder inside `to` when it is a folder, else
 * `to` itself as a new file, `.zip` added when its name lacks it (a missing `~/Downloads` was
 * saved as a file named `Downloads`). A path ending in a separator names a folder, which must
 * exist. Nothing is ever written outside the folder the person chose, and nothing existing is
 * replaced: a taken name in a chosen folder gets a free one (said by the path answered), a file
 * named outright is refused.
 */
async function target(
  typed: string,
  folderName: string,
  folderId: number,
  home: string,
): Promise<string> {
  const to = expandHome(typed.trim(), home);
  if (!path.isAbsolute(to)) fail('invalid', { key: 'backend.zipFullPath' });
  const chosen = path.resolve(to);
  const kind = await kindOf(chosen);
  if (kind === 'file') fail('conflict', { key: 'backend.exists', params: { path: chosen } });
  if (kind === null) {
    if (/[/\\]$/.test(to))
      fail('invalid', { key: 'backend.noSuchFolder', params: { dir: chosen } });
    if ((await kindOf(path.dirname(chosen))) !== 'dir')
      fail('invalid', { key: 'backend.noSuchFolder', params: { dir: path.dirname(chosen) } });
    const file = /\.zip$/i.test(chosen) ? chosen : `${chosen}.zip`;
    if ((await kindOf(file)) !== null)
      fail('conflict', { key: 'backend.exists', params: { path: file } });
    return file;
  }
  const name = zipName(folderName, folderId);
  const stem = name.slice(0, -'.zip'.length);
  for (let n = 1; n < 1000; n++) {
    const candidate = path.join(chosen, n === 1 ? name : `${stem} (${n}).zip`);
    if ((await kindOf(candidate)) === null) return candidate;
  }
  return fail('conflict', { key: 'backend.tooManyZips', params: { dir: chosen } });
}

/**
 * Streams a folder's archive to disk: into a temporary file beside the target, then linked to
 * its name (a link fails instead of replacing a file that appeared meanwhile).
 */
export async function downloadZip(opts: {
  client: ServiceClient;
  folderId: number;
  folderName: string;
  to: string;
  /** What `~` stands for in `to`. */
  home: string;
  progress: (bytes: number) => void;
}): Promise<{ path: string; bytes: number }> {
  const dest = await target(opts.to, opts.folderName, opts.folderId, opts.home);
  const temp = path.join(
    path.dirname(dest),
    `.${path.basename(dest)}.${randomBytes(6).toString('hex')}.part`,
  );
  let bytes = 0;
  let last = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      const now = Date.now();
      if (now - last >= PROGRESS_MS) {
        last = now;
        opts.progress(bytes);
      }
      done(null, chunk);
    },
  });
  try {
    const body = await opts.client.folderArchive(opts.folderId);
    await pipeline(body, counter, createWriteStream(temp, { flags: 'wx', mode: 0o644 }));
    await link(temp, dest);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      fail('conflict', { key: 'backend.exists', params: { path: dest } });
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      fail('invalid', { key: 'backend.cannotWrite', params: { dir: path.dirname(dest) } });
    if (code === 'ENOSPC' || code === 'EDQUOT')
      fail('invalid', { key: 'backend.diskFull', params: { dir: path.dirname(dest) } });
    throw err;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  opts.progress(bytes);
  return { path: dest, bytes };
}
