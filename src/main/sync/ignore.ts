import { readFileSync } from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import { CACHE_DIR } from './plan';

/** The user's ignore file at the top of the sync root, in gitignore syntax. */
export const IGNORE_FILE = '.workspace-sync-ignore';

/** System files that differ in case between platforms and tools, so matched in any case. */
const SYSTEM_FILES = ['.DS_Store', 'Thumbs.db', 'desktop.ini'];

/** Temporary files, locks and backups that editors and browsers make next to the real file. */
const TEMPORARY_FILES = [
  '~$*', // Office lock files
  '*.tmp',
  '.~lock.*', // LibreOffice locks
  '*.swp',
  '*.swx',
  '.*.swp',
  '*~', // editor backups
  '*.crdownload',
  '*.part',
  '.#*', // emacs locks
  '4913', // vim's probe for a writable folder
  `/${CACHE_DIR}`,
];

/**
 * Which local paths the engine never syncs: the built-in temporary and system files, and the
 * user's own rules from the ignore file. The built-ins are kept apart from the user's rules so a
 * `!` line cannot bring them (or the engine's cache) back.
 */
export class IgnoreRules {
  private matchers: Matchers;
  private checks = 0;

  private constructor(
    /** The user's lines the library accepted. */
    private readonly userLines: readonly string[],
    /** What could not be used from the ignore file (unreadable, bad lines), for the log. */
    readonly problems: readonly string[],
  ) {
    this.matchers = matchersOf(userLines);
  }

  /** Reads the user's ignore file in the sync root (gitignore syntax) if present, plus the built-in rules. */
  static load(rootAbs: string): IgnoreRules {
    let text: string;
    try {
      text = readFileSync(path.join(rootAbs, IGNORE_FILE), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return IgnoreRules.of();
      return IgnoreRules.build([], [`${IGNORE_FILE} could not be read (${code ?? String(error)})`]);
    }
    return IgnoreRules.build(text.replace(/^\uFEFF/, '').split(/\r?\n/), []);
  }

  /** Built-in rules only (and optional extra gitignore lines) — for tests and tools. */
  static of(extra: string[] = []): IgnoreRules {
    return IgnoreRules.build(extra, []);
  }

  private static build(lines: string[], problems: string[]): IgnoreRules {
    const accepted: string[] = [];
    for (const [index, line] of lines.entries()) {
      // One line at a time, tried alone first, so a line the library rejects costs only itself.
      try {
        ignore({ ignorecase: false }).add(line).ignores('probe');
        accepted.push(line);
      } catch (error) {
        problems.push(`${IGNORE_FILE} line ${index + 1} skipped: ${String(error)}`);
      }
    }
    return new IgnoreRules(accepted, problems);
  }

  /** The engine reloads the rules when this file changes. */
  static isIgnoreFile(rel: string): boolean {
    return rel === IGNORE_FILE;
  }

  /** `rel` is '/'-separated, relative to the root, no leading slash; isDir says whether it is a folder. */
  ignores(rel: string, isDir: boolean): boolean {
    // Ignoring the ignore file would hide its edits from the watcher, and so from the reload.
    if (rel === '' || IgnoreRules.isIgnoreFile(rel)) return false;
    const probe = isDir ? `${rel}/` : rel;
    // The library remembers the answer for every path (and its parents) it is asked about: over a
    // scan of 100,000 entries that is tens of megabytes, kept as long as the rules are. Fresh
    // matchers now and then bound it; building them costs far less than a millisecond.
    if (++this.checks > CHECKS_PER_MATCHERS) {
      this.checks = 0;
      this.matchers = matchersOf(this.userLines);
    }
    const { system, builtIn, user } = this.matchers;
    try {
      return system.ignores(probe) || builtIn.ignores(probe) || user.ignores(probe);
    } catch {
      // The library rejects paths that are not plain relative ones ('./x', '/x', '..'); such a
      // path is no name in the root, so no rule can be meant for it.
      return false;
    }
  }
}

const CHECKS_PER_MATCHERS = 5000;

/** The built-ins are kept apart from the user's rules so a `!` line cannot bring them back. */
interface Matchers {
  system: ignore.Ignore;
  builtIn: ignore.Ignore;
  user: ignore.Ignore;
}

function matchersOf(userLines: readonly string[]): Matchers {
  return {
    system: ignore({ ignorecase: true }).add(SYSTEM_FILES),
    builtIn: ignore({ ignorecase: false }).add(TEMPORARY_FILES),
    user: ignore({ ignorecase: false }).add([...userLines]),
  };
}
