// The entries' files: read if there, replaced whole or not at all, their mode kept.
import { stat } from 'node:fs/promises';

export { readIfAny, writeAtomically } from '../core/atomic-file';

export async function modeOf(file: string, fallback: number): Promise<number> {
  const st = await stat(file).catch(() => null);
  return st ? st.mode & 0o7777 : fallback;
}
