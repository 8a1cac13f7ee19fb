// The entries' files: read if there, replaced whole or not at all, their mode kept.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function readIfAny(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Replaces `file` whole or not at all (a temporary file beside it, then a rename). */
export async function writeAtomically(file: string, text: string, mode: number): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, text, { mode });
    await chmod(tmp, mode); // the umask may have taken bits away
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

export async function modeOf(file: string, fallback: number): Promise<number> {
  const st = await stat(file).catch(() => null);
  return st ? st.mode & 0o7777 : fallback;
}
