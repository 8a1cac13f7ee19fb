import { rm, rmdir } from 'node:fs/promises';
import { UserError } from '../errors/user-error';
import path from 'node:path';
import { desktopExec, keyFileValue } from '../../shared/desktop-entry';
import { readIfAny, writeAtomically } from './entry-files';
import { COPY_LINK, labelOf, tooltipOf, translated, type MenuEntry } from './menu-entry';
import { installThunar, uninstallThunar } from './thunar-uca';

// "Copy Workspace Sync link" in the Linux file managers' context menus, per user: each entry
// runs `command`, then `--`, then the chosen items, each one argument whatever its name holds
// (a newline, quotes, `$()`, `\ `, ` #`, `%`): a name must never become a switch or two
// arguments. Every format has its own quoting rules; each writer below follows its manager's,
// and test/cli/integrate.test.ts runs each entry through its manager's own parsing (GLib's).
// What the entry says is menu-entry.ts's; Thunar's uca.xml is thunar-uca.ts's. The same
// writers serve files on demand's entries (issue 41: Download now, Always keep on this device,
// Don't always keep, Free up space), which take several items in one run.

export { ENTRY_ID, MENU_LABEL } from './menu-entry';

type Translation = ReturnType<typeof translated>[number];

/** `Key[lang]=value` lines of a key file for each translation. */
const keyFileLines = (entry: MenuEntry, key: string, pick: (t: Translation) => string) =>
  translated(entry)
    .map((t) => `${key}[${t.lang}]=${keyFileValue(pick(t))}\n`)
    .join('');

export interface IntegrationOptions {
  /** The program and its first arguments; the entry appends the selected item's path. */
  command: string[];
  env: NodeJS.ProcessEnv;
  home: string;
}

export interface IntegrationFile {
  fileManager: 'Nautilus' | 'Nemo' | 'Dolphin' | 'Dolphin (KDE 5)' | 'Thunar';
  file: string;
}

/** An entry could not be written or removed; `done` lists those that were. */
export class IntegrationError extends Error {
  constructor(
    message: string,
    readonly done: IntegrationFile[],
    /** What failed ('write' or 'remove') and each manager's failure, for the caller's words. */
    readonly verb: 'write' | 'remove' = 'write',
    readonly failures: { fileManager: string; error: unknown }[] = [],
  ) {
    super(message);
    this.name = 'IntegrationError';
  }
}

/** $XDG_DATA_HOME and $XDG_CONFIG_HOME, or their defaults (a relative value is ignored). */
export function xdgDirs(opts: IntegrationOptions): { data: string; config: string } {
  const dir = (value: string | undefined, fallback: string) =>
    value && path.isAbsolute(value) ? value : path.join(opts.home, fallback);
  return {
    data: dir(opts.env.XDG_DATA_HOME, '.local/share'),
    config: dir(opts.env.XDG_CONFIG_HOME, '.config'),
  };
}

export function integrationFiles(
  opts: IntegrationOptions,
  entry: MenuEntry = COPY_LINK,
): IntegrationFile[] {
  const { data, config } = xdgDirs(opts);
  const { id } = entry;
  // Nautilus shows a folder of scripts as a submenu.
  const scripts = path.join(data, 'nautilus', 'scripts', ...(entry.submenu ? [entry.submenu] : []));
  return [
    { fileManager: 'Nautilus', file: path.join(scripts, labelOf(entry)) },
    { fileManager: 'Nemo', file: path.join(data, 'nemo', 'actions', `${id}.nemo_action`) },
    // KDE Frameworks 6 (and 5 from 5.85); the same file name in the KDE 5 place, so that a KIO
    // reading both shows the entry once (it keeps one file per name).
    { fileManager: 'Dolphin', file: path.join(data, 'kio', 'servicemenus', `${id}.desktop`) },
    {
      fileManager: 'Dolphin (KDE 5)',
      file: path.join(data, 'kservices5', 'ServiceMenus', `${id}.desktop`),
    },
    { fileManager: 'Thunar', file: path.join(config, 'Thunar', 'uca.xml') },
  ];
}

// ---- Quoting, one function per format -------------------------------------------------------

/** POSIX shell single quotes: everything literal; a quote is closed, escaped, reopened. */
export const shellQuote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/**
 * Nemo's tokens: one in the command would be replaced (Nemo reads the first `%` after %U's
 * insertion as a token, quoted or not), and Nemo has no escape for them.
 */
const NEMO_TOKEN = /%[UFPfNpD]/;

function checkCommand(command: string[]): void {
  if (command.length === 0 || command[0] === '')
    throw new UserError({ key: 'cli.integrate.emptyCommand' });
  for (const arg of command) {
    // Newlines would end a key file's line; no path we install has one.
    if (/[\n\r\0]/.test(arg))
      throw new UserError({ key: 'cli.integrate.lineBreak', params: { arg } });
    if (NEMO_TOKEN.test(arg)) {
      const token = NEMO_TOKEN.exec(arg)![0];
      throw new UserError({ key: 'cli.integrate.nemoToken', params: { token, arg } });
    }
  }
}

// ---- The entries -----------------------------------------------------------------------------

function nautilusScript(entry: MenuEntry, command: string[]): string {
  return `#!/bin/sh
# ${labelOf(entry)} (${entry.id}): written by Workspace Sync; "workspace-sync integrate
# --uninstall" removes it.
# Nautilus passes the selection as URIs in NAUTILUS_SCRIPT_SELECTED_URIS, one a line: a URI
# holds no line break (it is percent-encoded), so splitting on lines is exact whatever the
# names hold, and it covers search results too. Without it, the arguments are the items.
if [ -n "\${NAUTILUS_SCRIPT_SELECTED_URIS:-}" ]; then
  set -f
  IFS='
'
  set -- $NAUTILUS_SCRIPT_SELECTED_URIS
  unset IFS
fi
exec ${command.map(shellQuote).join(' ')} -- "$@"
`;
}

/**
 * Nemo (nemo-action.c) expands its tokens from the first `%` of Exec on, and stops at the first
 * `%` that is none: a `%` in the program's path (an AppImage under `100%free/`) would leave %U
 * unexpanded. So %U comes first, handed to a `sh -c` that puts it last; the program follows,
 * single-quoted for g_shell_parse_argv (g_spawn_command_line_async). %U with Quote=double: the
 * URI in double quotes, where it holds nothing special (`"`, `\` and `` ` `` are
 * percent-encoded), so a name's newline, space, backslash or `#` stays in the one argument.
 */
const NEMO_EXEC = `/bin/sh -c 'uri=$1; shift; exec "$@" -- "$uri"' sh %U`;
/**
 * The same for several items: %U's URIs, then `--` (no URI is `--`), then the program and its
 * arguments ending in `--`; the script turns the URIs round to the end. No `%` in it: Nemo
 * would stop its expansion there.
 */
const NEMO_EXEC_MANY =
  `/bin/sh -c 'n=0; for a; do [ "$a" = -- ] && break; n=$((n+1)); done; ` +
  `while [ $n -gt 0 ]; do a=$1; shift; set -- "$@" "$a"; n=$((n-1)); done; shift; exec "$@"' sh %U --`;

function nemoAction(entry: MenuEntry, command: string[]): string {
  const exec = entry.many
    ? `${NEMO_EXEC_MANY} ${[...command.map(shellQuote), '--'].join(' ')}`
    : `${NEMO_EXEC} ${command.map(shellQuote).join(' ')}`;
  return `[Nemo Action]
# ${entry.id}: written by Workspace Sync
Name=${labelOf(entry)}
${keyFileLines(entry, 'Name', (t) => t.label)}Comment=${tooltipOf(entry)}
${keyFileLines(entry, 'Comment', (t) => t.tooltip)}Exec=${keyFileValue(exec)}
Icon-Name=${entry.icon}
Selection=${entry.many ? 'notnone' : 's'}
Extensions=any;
Quote=double
`;
}

function serviceMenu(entry: MenuEntry, command: string[]): string {
  // %f (%F): KIO inserts the local path (each) as one argument (after `--`: never a switch).
  // ServiceTypes is for KDE 5's reader, MimeType all/all for files and folders alike.
  const exec = desktopExec(command, entry.many ? '-- %F' : '-- %f');
  const submenu = entry.submenu ? `X-KDE-Submenu=${keyFileValue(entry.submenu)}\n` : '';
  return `[Desktop Entry]
# ${entry.id}: written by Workspace Sync
Type=Service
ServiceTypes=KonqPopupMenu/Plugin
X-KDE-ServiceTypes=KonqPopupMenu/Plugin
MimeType=all/all;
Actions=${entry.action};
X-KDE-Priority=TopLevel
${submenu}
[Desktop Action ${entry.action}]
Name=${labelOf(entry)}
${keyFileLines(entry, 'Name', (t) => t.label)}Icon=${entry.icon}
Exec=${keyFileValue(exec)}
`;
}

/**
 * Thunar runs `/bin/sh -c` on its command after replacing %f (%F) by the shell-quoted path
 * (each, g_shell_quote) and %% by %; any other %-letter pair is dropped, hence every % of ours
 * doubled.
 */
const thunarCommand = (entry: MenuEntry, command: string[]) =>
  `${command.map((a) => shellQuote(a).replaceAll('%', '%%')).join(' ')} -- ${entry.many ? '%F' : '%f'}`;

// ---- Install and uninstall -------------------------------------------------------------------

async function eachEntry(
  opts: IntegrationOptions,
  menuEntry: MenuEntry,
  work: (entry: IntegrationFile) => Promise<boolean>,
  verb: 'write' | 'remove',
): Promise<IntegrationFile[]> {
  const done: IntegrationFile[] = [];
  const failed: { fileManager: string; error: unknown }[] = [];
  // One manager's trouble (a broken uca.xml) does not keep the others from their entry.
  for (const entry of integrationFiles(opts, menuEntry)) {
    try {
      if (await work(entry)) done.push(entry);
    } catch (err) {
      failed.push({ fileManager: entry.fileManager, error: err });
    }
  }
  if (failed.length > 0) {
    const each = failed.map(
      (f) => `${f.fileManager}: ${f.error instanceof Error ? f.error.message : String(f.error)}`,
    );
    throw new IntegrationError(
      `Could not ${verb} every entry. ${each.join(' ')}`,
      done,
      verb,
      failed,
    );
  }
  return done;
}

/**
 * Writes the entries of Nautilus, Nemo, Dolphin (KDE 6 and 5) and Thunar for the user; running
 * it again rewrites them (a moved program is followed) and leaves everything else as it was.
 * Returns the files written.
 */
export function installIntegrations(
  opts: IntegrationOptions,
  entry: MenuEntry = COPY_LINK,
): Promise<IntegrationFile[]> {
  checkCommand(opts.command);
  const { command } = opts;
  return eachEntry(
    opts,
    entry,
    async ({ fileManager, file }) => {
      switch (fileManager) {
        case 'Nautilus':
          await writeAtomically(file, nautilusScript(entry, command), 0o755);
          break;
        case 'Nemo':
          await writeAtomically(file, nemoAction(entry, command), 0o644);
          break;
        case 'Dolphin':
        case 'Dolphin (KDE 5)':
          // KIO runs a service menu of the user's own only when it is executable.
          await writeAtomically(file, serviceMenu(entry, command), 0o755);
          break;
        case 'Thunar':
          await installThunar(file, entry, thunarCommand(entry, command));
          break;
      }
      return true;
    },
    'write',
  );
}

/** Removes our entries, only ours (the other actions of uca.xml stay). Returns what it removed. */
export function uninstallIntegrations(
  opts: IntegrationOptions,
  entry: MenuEntry = COPY_LINK,
): Promise<IntegrationFile[]> {
  return eachEntry(
    opts,
    entry,
    async ({ fileManager, file }) => {
      if (fileManager === 'Thunar') return uninstallThunar(file, entry);
      const text = await readIfAny(file);
      // A file of the same name that is not ours stays.
      if (text === null || !text.includes(entry.id)) return false;
      await rm(file, { force: true });
      // Our submenu's folder of scripts goes with its last script; one holding others stays.
      if (fileManager === 'Nautilus' && entry.submenu)
        await rmdir(path.dirname(file)).catch(() => undefined);
      return true;
    },
    'remove',
  );
}
