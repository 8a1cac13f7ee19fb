import { mkdirSync, rmdirSync } from 'node:fs';
import type { JournalItem } from '../../journal/journal';
import type { LocalRoot } from '../local';
import { MOVING_DIR } from '../paths';
import type { Trash } from '../ports';

/**
 * A synced item to the trash as the executor does it: first into a folder of its own in the
 * holding place (`why` names it), through folders opened from the root (no link followed), then
 * handed to the trash by path; put back where it was if the trash refuses it.
 */
export async function trashItem(
  local: LocalRoot,
  trash: Trash,
  j: JournalItem,
  why: 'free' | 'excluded',
): Promise<void> {
  const box = `${MOVING_DIR}/${why}-${j.remoteId}`;
  const staged = `${box}/${j.localName}`;
  mkdirSync(local.abs(box), { recursive: true });
  try {
    local.confined.rename(j.localPath, staged);
    try {
      await trash.put(local.abs(staged), j.localPath);
    } catch (err) {
      local.confined.rename(staged, j.localPath);
      throw err;
    }
  } finally {
    try {
      rmdirSync(local.abs(box));
    } catch {
      // Not empty (put back failed too): what is in it stays, nothing is lost.
    }
  }
}
