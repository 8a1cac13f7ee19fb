/**
 * What the engine needs from its host, as small interfaces: the CLI and the app give different
 * implementations (a trash folder in the state directory or the OS trash; a rotating log file).
 * The logger is the core room's (src/main/core/logger.ts), named here as one of those ports.
 */
export { silentLogger, type Logger } from '../core/logger';

/**
 * Where user data goes instead of being deleted. `put` moves the file or folder at `absPath`
 * (inside the sync root) out of the root, keeping its content; `relPath` is its path relative to
 * the root, for the trash's own bookkeeping. It never unlinks.
 */
export interface Trash {
  put(absPath: string, relPath: string): Promise<void>;
}

/**
 * The disk under the sync folder, for freeing files not opened lately when it is nearly full
 * (loop/auto-free.ts; the system's there): tests give a fake one.
 */
export interface DiskSpace {
  /** Bytes free to us (not counting the root's reserve) and the filesystem's size. */
  space(dir: string): { available: number; total: number };
  /** Whether the mount updates a file's access time when it is read (not `noatime`). */
  recordsAccess(dir: string): boolean;
}
