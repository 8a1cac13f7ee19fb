import { readFileSync } from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import { CACHE_DIR } from '../paths';

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

  /**
   * Reads the user's ignore file in the sync root (gitignore syntax) if present, plus the built-in
   * rules. `extra` (the settings' patterns, for every pair) come before the file's lines, so the
   * folder's own file can bring a name back with `!`, as a .gitignore overrides git's global one.
   */
  static load(rootAbs: string, extra: readonly string[] = []): IgnoreRules {
    const problems: string[] = [];
    const fromSettings = accepted(extra, (n) => `ignore pattern ${n} of the settings`, problems);
    let text: string;
    try {
      text = readFileSync(path.join(rootAbs, IGNORE_FILE), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT')
        problems.push(`${IGNORE_FILE} could not be read (${code ?? String(error)})`);
      return new IgnoreRules(fromSettings, problems);
    }
    const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
    const fromFile = accepted(lines, (n) => `${IGNORE_FILE} line ${n}`, problems);
    return new IgnoreRules([...fromSettings, ...fromFile], problems);
  }

  /** Built-in rules only (and optional extra gitignore lines) — for tests and tools. */
  static of(extra: string[] = []): IgnoreRules {
    const problems: string[] = [];
    return new IgnoreRules(
      accepted(extra, (n) => `line ${n}`, problems),
      problems,
    );
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

/** The lines the library accepts, each tried alone first, so a bad line costs only itself. */
function accepted(
  lines: readonly string[],
  where: (lineNumber: number) => string,
  problems: string[],
): string[] {
  const out: string[] = [];
  for (const [index, line] of lines.entries()) {
    try {
      ignore({ ignorecase: false }).add(line).ignores('probe');
      out.push(line);
    } catch (error) {
      problems.push(`${where(index + 1)} skipped: ${String(error)}`);
    }
  }
  return out;
}

/** Longest pattern the settings take: a path, not a document. */
export const MAX_PATTERN_LENGTH = 1024;

/**
 * Why a pattern typed in the settings cannot be used, in words for the person, or null when it
 * can. Stricter than the ignore file's reading (which skips a bad line and goes on): the settings
 * refuse it while the person is there to fix it.
 */
export function patternProblem(pattern: string): string | null {
  const shown = pattern.length > 40 ? `${pattern.slice(0, 40)}…` : pattern;
  if (/\p{Cc}/u.test(pattern))
    return /[\r\n]/.test(pattern)
      ? `One pattern per line: “${shown.replace(/[\r\n]+/g, ' ')}” spans several.`
      : `The pattern “${shown.replace(/\p{Cc}/gu, '?')}” holds a control character.`;
  if (pattern.length > MAX_PATTERN_LENGTH)
    return `The pattern “${shown}” is longer than ${MAX_PATTERN_LENGTH} characters.`;
  const body = pattern.trim();
  if (body === '') return 'An ignore pattern cannot be empty.';
  // Each of these matches nothing at all: certainly not what the person meant.
  if (['!', '/', '!/', '\\'].includes(body))
    return `The pattern “${body}” matches nothing: write a name or a pattern such as *.log or build/.`;
  try {
    ignore({ ignorecase: false }).add(pattern).ignores('probe');
  } catch (error) {
    return `The pattern “${shown}” is not valid gitignore syntax (${String(error)}).`;
  }
  return null;
}

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
