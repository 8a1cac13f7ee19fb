import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

// A file replaced whole or not at all, and read if there: the state folder's JSON files and the
// file managers' menu entries alike. One way, so a crash never leaves half of either.

/** A file's text, or null when there is none (yet). */
export async function readIfAny(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Replaces `file` with `text`, atomically: a hidden temporary file beside it, flushed, then
 * renamed over it. A crash leaves the old file or the new one, never half of one. `mode` is
 * set whatever the umask; a folder made for it gets `dirMode`.
 */
export async function writeAtomically(
  file: string,
  text: string,
  mode: number,
  dirMode?: number,
): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, ...(dirMode === undefined ? {} : { mode: dirMode }) });
  const temp = path.join(
    dir,
    `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const handle = await open(temp, 'wx', mode);
  try {
    try {
      await handle.chmod(mode); // whatever the umask
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  // On a file system that ignores the open mode (or an old file being replaced elsewhere).
  await chmod(file, mode).catch(() => undefined);
}
