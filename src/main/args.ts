import path from 'node:path';

/** What the app was asked to do on its command line. */
export interface AppArgs {
  /** `--copy-link PATH…`: copy these items' share links (from a file manager's menu). */
  copyLink: string[];
  /** `--hidden`: start in the tray without a window (start at login). */
  hidden: boolean;
  /** `--cli COMMAND ARGS…`: run the headless CLI instead of the app; null otherwise. */
  cli: string[] | null;
}

/**
 * Reads the app's own switches from an argv, wherever they are: Electron's argv starts with the
 * binary (and, unpackaged, the app's path), and a second instance's argv may carry switches
 * Chromium added. A switch ends a list of paths; relative paths are taken from `cwd` (a second
 * instance's working directory, not ours).
 */
export function parseAppArgs(argv: readonly string[], cwd: string): AppArgs {
  const out: AppArgs = { copyLink: [], hidden: false, cli: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--cli') {
      out.cli = argv.slice(i + 1);
      break;
    }
    if (arg === '--hidden') out.hidden = true;
    else if (arg.startsWith('--copy-link=')) out.copyLink.push(arg.slice('--copy-link='.length));
    else if (arg === '--copy-link') {
      while (i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) out.copyLink.push(argv[++i]!);
    }
  }
  out.copyLink = out.copyLink.filter((p) => p !== '').map((p) => path.resolve(cwd, p));
  return out;
}

/** What a second instance hands the first (`requestSingleInstanceLock`'s additional data). */
export interface Handover {
  argv: string[];
  cwd: string;
}

export function isHandover(value: unknown): value is Handover {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    Array.isArray(v.argv) && v.argv.every((a) => typeof a === 'string') && typeof v.cwd === 'string'
  );
}
