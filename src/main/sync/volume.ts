// What a volume is like: whether it tells names apart by case and by Unicode normalization,
// probed once per sync root, and the key under which it (or the service) compares names.
import { randomBytes } from 'node:crypto';
import { lstat, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface VolumeProfile {
  flavor: 'posix' | 'win32';
  /** Names differing only by case are the same file (Windows, default macOS). */
  caseInsensitive: boolean;
  /** Names differing only by Unicode normalization (NFC vs NFD) are the same file (macOS). */
  normalizationInsensitive: boolean;
}

/** The platform's usual profile (darwin: both insensitive; win32: case-insensitive; else: neither). */
export function defaultProfile(platform: NodeJS.Platform = process.platform): VolumeProfile {
  switch (platform) {
    case 'darwin':
      return { flavor: 'posix', caseInsensitive: true, normalizationInsensitive: true };
    case 'win32':
      return { flavor: 'win32', caseInsensitive: true, normalizationInsensitive: false };
    default:
      return { flavor: 'posix', caseInsensitive: false, normalizationInsensitive: false };
  }
}

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return false;
    throw error;
  }
}

/** Detects the profile of the volume holding `dir` by creating (and then removing) one probe file of its own in `dir`. */
export async function probeVolume(dir: string): Promise<VolumeProfile> {
  const flavor = process.platform === 'win32' ? 'win32' : 'posix';
  const name = `.wsync-probe-${randomBytes(8).toString('hex')}-a\u00e9`;
  const file = path.join(dir, name);
  let created = false;
  try {
    await writeFile(file, '', { flag: 'wx' });
    created = true;
    const caseInsensitive = await exists(path.join(dir, name.toUpperCase()));
    const normalizationInsensitive = await exists(path.join(dir, name.normalize('NFD')));
    return { flavor, caseInsensitive, normalizationInsensitive };
  } catch {
    return defaultProfile();
  } finally {
    if (created) await rm(file, { force: true }).catch(() => undefined);
  }
}

/** The key under which the volume compares a name (or a '/'-separated relative path): lower-cased when case-insensitive, NFC when normalization-insensitive, else unchanged. */
export function foldName(name: string, profile: VolumeProfile): string {
  let key = profile.normalizationInsensitive ? name.normalize('NFC') : name;
  if (profile.caseInsensitive) {
    key = key.toLowerCase();
    // Lower-casing can leave a sequence that composes further (rare, but keep the key canonical).
    if (profile.normalizationInsensitive) key = key.normalize('NFC');
  }
  return key;
}

/**
 * The key under which the service compares the names in one folder: without regard to case
 * (conventions.md), and NFC (the service stores names composed).
 */
export const serviceKey = (name: string): string =>
  foldName(name, { flavor: 'posix', caseInsensitive: true, normalizationInsensitive: true });
