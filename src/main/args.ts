import { localPathOf } from './os/file-arg';

/** Files on demand's actions from the file managers' menus (`--files ACTION PATH…`). */
export const FILES_OPS = ['download', 'pin', 'unpin', 'free'] as const;
export type FilesOp = (typeof FILES_OPS)[number];

/** What the app was asked to do on its command line. */
export interface AppArgs {
  /** `--copy-link PATH…`: copy these items' share links (from a file manager's menu). */
  copyLink: string[];
  /** `--open PATH…`: placeholders double-clicked (issue 41): download each file, then open it. */
  open: string[];
  /** `--files ACTION PATH…`: a files-on-demand menu entry on these items; null otherwise. */
  files: { op: FilesOp; paths: string[] } | null;
  /** `--hidden`: start in the tray without a window (start at login). */
  hidden: boolean;
  /** `--cli COMMAND ARGS…`: run the headless CLI instead of the app; null otherwise. */
  cli: string[] | null;
}

/**
 * Where the program's own arguments start in an Electron argv: after the binary, and after the
 * app's path too when it runs unpackaged (`electron .`, `process.defaultApp`).
 */
export const firstArgIndex = (defaultApp: boolean | undefined = process.defaultApp) =>
  defaultApp ? 2 : 1;

/**
 * Reads the app's own switches from an argv (the binary first, see firstArgIndex). Item names
 * reach argv from file managers, so a name must never become a switch: `--cli` counts only as
 * the very first argument (a name that splits into lines cannot put it there), and everything
 * after `--copy-link`, `--open` or `--files ACTION` (and an optional `--`) is an item, never a
 * switch. Other arguments (Chromium's switches) are ignored. Relative paths are taken from `cwd` (a second instance's
 * working directory, not ours); `file://` URIs are decoded.
 */
export function parseAppArgs(
  argv: readonly string[],
  cwd: string,
  first: number = firstArgIndex(),
): AppArgs {
  const out: AppArgs = { copyLink: [], open: [], files: null, hidden: false, cli: null };
  const args = argv.slice(first);
  if (args[0] === '--cli') return { ...out, cli: args.slice(1) };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--hidden') out.hidden = true;
    else if (arg.startsWith('--copy-link=')) out.copyLink.push(arg.slice('--copy-link='.length));
    else if (arg === '--files') {
      const op = FILES_OPS.find((o) => o === args[i + 1]);
      const items = args.slice(i + 2);
      if (op) out.files = { op, paths: items[0] === '--' ? items.slice(1) : items };
      break;
    } else if (arg === '--copy-link' || arg === '--open') {
      const items = args.slice(i + 1);
      (arg === '--open' ? out.open : out.copyLink).push(
        ...(items[0] === '--' ? items.slice(1) : items),
      );
      break;
    }
  }
  const local = (paths: string[]) => paths.filter((p) => p !== '').map((p) => localPathOf(p, cwd));
  out.copyLink = local(out.copyLink);
  out.open = local(out.open);
  if (out.files) out.files.paths = local(out.files.paths);
  if (out.files?.paths.length === 0) out.files = null;
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
