import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DOMParser, XMLSerializer, type Document, type Element } from '@xmldom/xmldom';
import { UserError } from '../errors/user-error';
import { english, LANGUAGES, translator } from '../../shared/i18n';
import { desktopExec, keyFileValue } from '../../shared/desktop-entry';

// "Copy Workspace Sync link" in the Linux file managers' context menus, per user: each entry
// runs `command`, then `--`, then the chosen items, each one argument whatever its name holds
// (a newline, quotes, `$()`, `\ `, ` #`, `%`): a name must never become a switch or two
// arguments. Every format has its own quoting rules; each writer below follows its manager's,
// and test/os/integrate.test.ts runs each entry through its manager's own parsing (GLib's).

export const MENU_LABEL = english.t('integrate.menuLabel');
const TOOLTIP = english.t('integrate.menuTooltip');
/**
 * The label and tooltip in each other language of the catalog: the key files (`Name[de]=`) and
 * uca.xml (`xml:lang`) carry them all, and the file manager shows the one of its own locale, so
 * the entry follows the desktop's language without being written again. (A Nautilus script's
 * label is its file name: one language, English, so that --uninstall always finds it.)
 */
const TRANSLATED = LANGUAGES.filter((lang) => lang !== 'en').map((lang) => ({
  lang,
  label: translator(lang).t('integrate.menuLabel'),
  tooltip: translator(lang).t('integrate.menuTooltip'),
}));
/** `Key[lang]=value` lines of a key file for each translation. */
const keyFileLines = (key: string, pick: (t: (typeof TRANSLATED)[number]) => string) =>
  TRANSLATED.map((t) => `${key}[${t.lang}]=${keyFileValue(pick(t))}\n`).join('');
const ICON = 'insert-link';
/** Names our entries (file names, the Thunar action's unique-id), so they are found again. */
export const ENTRY_ID = 'workspace-sync-copy-link';

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
function xdgDirs(opts: IntegrationOptions): { data: string; config: string } {
  const dir = (value: string | undefined, fallback: string) =>
    value && path.isAbsolute(value) ? value : path.join(opts.home, fallback);
  return {
    data: dir(opts.env.XDG_DATA_HOME, '.local/share'),
    config: dir(opts.env.XDG_CONFIG_HOME, '.config'),
  };
}

export function integrationFiles(opts: IntegrationOptions): IntegrationFile[] {
  const { data, config } = xdgDirs(opts);
  return [
    { fileManager: 'Nautilus', file: path.join(data, 'nautilus', 'scripts', MENU_LABEL) },
    { fileManager: 'Nemo', file: path.join(data, 'nemo', 'actions', `${ENTRY_ID}.nemo_action`) },
    // KDE Frameworks 6 (and 5 from 5.85); the same file name in the KDE 5 place, so that a KIO
    // reading both shows the entry once (it keeps one file per name).
    { fileManager: 'Dolphin', file: path.join(data, 'kio', 'servicemenus', `${ENTRY_ID}.desktop`) },
    {
      fileManager: 'Dolphin (KDE 5)',
      file: path.join(data, 'kservices5', 'ServiceMenus', `${ENTRY_ID}.desktop`),
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

function nautilusScript(command: string[]): string {
  return `#!/bin/sh
# ${MENU_LABEL} (${ENTRY_ID}): written by Workspace Sync; "workspace-sync integrate
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

function nemoAction(command: string[]): string {
  const exec = `${NEMO_EXEC} ${command.map(shellQuote).join(' ')}`;
  return `[Nemo Action]
# ${ENTRY_ID}: written by Workspace Sync
Name=${MENU_LABEL}
${keyFileLines('Name', (t) => t.label)}Comment=${TOOLTIP}
${keyFileLines('Comment', (t) => t.tooltip)}Exec=${keyFileValue(exec)}
Icon-Name=${ICON}
Selection=s
Extensions=any;
Quote=double
`;
}

function serviceMenu(command: string[]): string {
  // %f: KIO inserts the local path as one argument (after `--`: never a switch). ServiceTypes
  // is for KDE 5's reader, MimeType all/all for files and folders alike.
  const exec = desktopExec(command, '-- %f');
  return `[Desktop Entry]
# ${ENTRY_ID}: written by Workspace Sync
Type=Service
ServiceTypes=KonqPopupMenu/Plugin
X-KDE-ServiceTypes=KonqPopupMenu/Plugin
MimeType=all/all;
Actions=copyWorkspaceSyncLink;
X-KDE-Priority=TopLevel

[Desktop Action copyWorkspaceSyncLink]
Name=${MENU_LABEL}
${keyFileLines('Name', (t) => t.label)}Icon=${ICON}
Exec=${keyFileValue(exec)}
`;
}

/**
 * Thunar runs `/bin/sh -c` on its command after replacing %f by the shell-quoted path
 * (g_shell_quote) and %% by %; any other %-letter pair is dropped, hence every % of ours doubled.
 */
const thunarCommand = (command: string[]) =>
  `${command.map((a) => shellQuote(a).replaceAll('%', '%%')).join(' ')} -- %f`;

// ---- uca.xml ---------------------------------------------------------------------------------

const UCA_HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';

/**
 * The declaration Thunar itself writes (`<?xml encoding="UTF-8" version="1.0"?>`) is not
 * well-formed XML (version must come first), while Thunar's own reader skips it: it is read
 * aside and a well-formed one written back, so that the file is valid XML afterwards.
 */
function parseUca(text: string, file: string): Document {
  const body = text.replace(/^\uFEFF?\s*<\?xml[^?]*\?>/, '');
  let doc: Document;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new Error(message);
      },
    }).parseFromString(body, 'text/xml');
  } catch (err) {
    const why = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    throw new UserError({ key: 'cli.integrate.notXml', params: { file, why: why ?? '' } });
  }
  if (doc.documentElement?.tagName !== 'actions') {
    throw new UserError({ key: 'cli.integrate.notThunar', params: { file } });
  }
  return doc;
}

/** The document whole (comments around <actions> too), one top-level node a line. */
function serializeUca(doc: Document): string {
  const serializer = new XMLSerializer();
  const nodes = Array.from(doc.childNodes)
    .filter((n) => n.nodeType !== n.TEXT_NODE || (n.nodeValue ?? '').trim() !== '')
    .map((n) => serializer.serializeToString(n));
  return UCA_HEADER + nodes.join('\n') + '\n';
}

const isOurs = (action: Element) =>
  Array.from(action.getElementsByTagName('unique-id')).some(
    (u) => (u.textContent ?? '').trim() === ENTRY_ID,
  );

/** Removes our <action> elements (and the line each stood on); returns how many. */
function removeOurs(root: Element): number {
  let removed = 0;
  for (const node of Array.from(root.childNodes)) {
    if (node.nodeType !== node.ELEMENT_NODE) continue;
    const el = node as Element;
    if (el.tagName !== 'action' || !isOurs(el)) continue;
    const before = el.previousSibling;
    if (before && before.nodeType === before.TEXT_NODE && (before.nodeValue ?? '').trim() === '')
      root.removeChild(before);
    root.removeChild(el);
    removed++;
  }
  return removed;
}

function appendOurs(doc: Document, root: Element, command: string): void {
  const action = doc.createElement('action');
  // Only the elements every Thunar knows: an unknown one makes it drop the whole file.
  // A name and a description per language (xml:lang), as Thunar's own uca.xml has them.
  const fields: [string, string, string?][] = [
    ['icon', ICON],
    ['name', MENU_LABEL],
    ...TRANSLATED.map((t): [string, string, string] => ['name', t.label, t.lang]),
    ['unique-id', ENTRY_ID],
    ['command', command],
    ['description', TOOLTIP],
    ...TRANSLATED.map((t): [string, string, string] => ['description', t.tooltip, t.lang]),
    ['patterns', '*'],
  ];
  for (const [tag, text, lang] of fields) {
    action.appendChild(doc.createTextNode('\n\t'));
    const el = doc.createElement(tag);
    if (lang) el.setAttribute('xml:lang', lang);
    el.appendChild(doc.createTextNode(text));
    action.appendChild(el);
  }
  for (const tag of [
    'directories',
    'audio-files',
    'image-files',
    'other-files',
    'text-files',
    'video-files',
  ]) {
    action.appendChild(doc.createTextNode('\n\t'));
    action.appendChild(doc.createElement(tag));
  }
  action.appendChild(doc.createTextNode('\n'));
  // Before the closing tag, on a line of its own, whatever the file's last text was.
  const last = root.lastChild;
  if (last && last.nodeType === last.TEXT_NODE && (last.nodeValue ?? '').trim() === '') {
    root.insertBefore(doc.createTextNode('\n'), last);
    root.insertBefore(action, last);
  } else {
    root.appendChild(doc.createTextNode('\n'));
    root.appendChild(action);
    root.appendChild(doc.createTextNode('\n'));
  }
}

async function readIfAny(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Replaces `file` whole or not at all (a temporary file beside it, then a rename). */
async function writeAtomically(file: string, text: string, mode: number): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, text, { mode });
    await chmod(tmp, mode); // the umask may have taken bits away
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

async function modeOf(file: string, fallback: number): Promise<number> {
  const st = await stat(file).catch(() => null);
  return st ? st.mode & 0o7777 : fallback;
}

async function installThunar(file: string, command: string): Promise<void> {
  const text = await readIfAny(file);
  const doc = parseUca(text ?? '<actions>\n</actions>', file);
  const root = doc.documentElement!;
  removeOurs(root);
  appendOurs(doc, root, command);
  const xml = serializeUca(doc);
  if (xml !== text) await writeAtomically(file, xml, await modeOf(file, 0o644));
}

/** False when the file holds no action of ours (or is not there): it is left untouched. */
async function uninstallThunar(file: string): Promise<boolean> {
  const text = await readIfAny(file);
  if (text === null) return false;
  const doc = parseUca(text, file);
  const root = doc.documentElement!;
  if (removeOurs(root) === 0) return false;
  await writeAtomically(file, serializeUca(doc), await modeOf(file, 0o644));
  return true;
}

// ---- Install and uninstall -------------------------------------------------------------------

async function eachEntry(
  opts: IntegrationOptions,
  work: (entry: IntegrationFile) => Promise<boolean>,
  verb: 'write' | 'remove',
): Promise<IntegrationFile[]> {
  const done: IntegrationFile[] = [];
  const failed: { fileManager: string; error: unknown }[] = [];
  // One manager's trouble (a broken uca.xml) does not keep the others from their entry.
  for (const entry of integrationFiles(opts)) {
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
export function installIntegrations(opts: IntegrationOptions): Promise<IntegrationFile[]> {
  checkCommand(opts.command);
  const { command } = opts;
  return eachEntry(
    opts,
    async ({ fileManager, file }) => {
      switch (fileManager) {
        case 'Nautilus':
          await writeAtomically(file, nautilusScript(command), 0o755);
          break;
        case 'Nemo':
          await writeAtomically(file, nemoAction(command), 0o644);
          break;
        case 'Dolphin':
        case 'Dolphin (KDE 5)':
          // KIO runs a service menu of the user's own only when it is executable.
          await writeAtomically(file, serviceMenu(command), 0o755);
          break;
        case 'Thunar':
          await installThunar(file, thunarCommand(command));
          break;
      }
      return true;
    },
    'write',
  );
}

/** Removes our entries, only ours (the other actions of uca.xml stay). Returns what it removed. */
export function uninstallIntegrations(opts: IntegrationOptions): Promise<IntegrationFile[]> {
  return eachEntry(
    opts,
    async ({ fileManager, file }) => {
      if (fileManager === 'Thunar') return uninstallThunar(file);
      const text = await readIfAny(file);
      // A file of the same name that is not ours stays.
      if (text === null || !text.includes(ENTRY_ID)) return false;
      await rm(file, { force: true });
      return true;
    },
    'remove',
  );
}
