import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

/** A state file's text, or null when there is none yet. */
export async function readStateFile(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Writes `body` as JSON readable by this user only, atomically: a temporary file beside it,
 * flushed, then renamed over it. A crash leaves the old file or the new one, never half of one.
 */
export async function writeStateFile(file: string, body: unknown): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = path.join(
    dir,
    `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const handle = await open(temp, 'wx', 0o600);
  try {
    try {
      await handle.chmod(0o600); // whatever the umask
      await handle.writeFile(JSON.stringify(body, null, 2) + '\n', 'utf8');
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
  await chmod(file, 0o600).catch(() => undefined);
}
