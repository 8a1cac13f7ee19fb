import { closeSync, mkdirSync, openSync, renameSync, writeFileSync } from 'node:fs';
import type { ServiceClient } from '../../src/main/api/client';

// Chains of folders deeper than this computer's paths (PATH_MAX, 4,096 bytes), here and on the
// service, for the tests of what cannot be placed (long-names, unplaced-delete).

/** The name of the folder at `i` in a chain: `level-0000`, 10 characters. */
export const levelName = (i: number) => `level-${String(i).padStart(4, '0')}`;

/**
 * Makes `depth` folders one in the other on the service below `parent`, named by `name`, and
 * calls `each` (if any) with each folder's id as it is made. Returns their ids, top first.
 */
export async function remoteChain(
  client: ServiceClient,
  workspaceId: number,
  parent: number,
  depth: number,
  name: (i: number) => string = levelName,
  each?: (id: number, i: number) => Promise<unknown>,
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < depth; i++) {
    parent = (await client.createFolder(workspaceId, parent, name(i))).id;
    ids.push(parent);
    if (each) await each(parent, i);
  }
  return ids;
}

/**
 * Opens the folder `depth` levels of a `deepTree` below `dir`, each opened from the one above
 * (through /proc/self/fd, as `openat` would). Returns its fd, to be closed by the caller.
 */
export function openDeep(dir: string, depth: number): number {
  let fd = openSync(dir, 'r');
  for (let i = 0; i < depth; i++) {
    const next = openSync(`/proc/self/fd/${fd}/${levelName(i)}`, 'r');
    closeSync(fd);
    fd = next;
  }
  return fd;
}

/**
 * Makes `depth` folders one in the other below `dir`, each opened from the one above (through
 * /proc/self/fd, as `openat` would): a path name is never longer than one folder's name, so the
 * tree can go deeper than PATH_MAX. Writes `file` in the deepest folder.
 */
export function deepTree(dir: string, depth: number, file: string): void {
  let fd = openSync(dir, 'r');
  for (let i = 0; i < depth; i++) {
    const name = levelName(i);
    mkdirSync(`/proc/self/fd/${fd}/${name}`);
    const next = openSync(`/proc/self/fd/${fd}/${name}`, 'r');
    closeSync(fd);
    fd = next;
  }
  writeFileSync(`/proc/self/fd/${fd}/${file}`, 'deep');
  closeSync(fd);
}

/**
 * Cuts a deep tree made by `deepTree` into pieces of 100 folders moved up to `dir`, so that each
 * can be removed by path (`rmSync` walks by path, and stops at PATH_MAX).
 */
export function cutDeepTree(dir: string): void {
  const top = openSync(dir, 'r');
  let fd = openSync(dir, 'r');
  try {
    for (let i = 0, piece = 0; ; i++) {
      const name = levelName(i);
      let next: number;
      try {
        next = openSync(`/proc/self/fd/${fd}/${name}`, 'r');
      } catch {
        return;
      }
      if (i > 0 && i % 100 === 0) {
        renameSync(`/proc/self/fd/${fd}/${name}`, `/proc/self/fd/${top}/piece-${++piece}`);
      }
      closeSync(fd);
      fd = next;
    }
  } finally {
    closeSync(fd);
    closeSync(top);
  }
}
