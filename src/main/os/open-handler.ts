// Double-clicking a placeholder (`report.pdf.wsync`, issue 41) in any file manager runs
// `workspace-sync files open PATH`: a MIME type of ours for the suffix (a shared-mime-info
// package), a hidden .desktop handler for it, and that handler made the type's default in the
// user's mimeapps.list. All per user, under the XDG dirs; integrate.ts's copy-link entries are
// beside them. test/os/open-handler.test.ts asks GLib (what Nautilus, Nemo and Thunar use) which
// type a placeholder is, which app opens it, and launches it.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { english, LANGUAGES, translator, type MessageKey, type Words } from '../../shared/i18n';
import { desktopExec, keyFileValue } from '../../shared/desktop-entry';
import { PLACEHOLDER_SUFFIX } from '../../shared/placeholder';
import { readIfAny, writeAtomically } from './entry-files';
import { DESKTOP_TOOL, MIME_TOOL, runDatabaseTool } from './mime-tools';
import { setDefaultApp, unsetDefaultApp } from './mimeapps';
import { xdgDirs, type IntegrationOptions } from './integrate';

export const PLACEHOLDER_TYPE = 'application/x-workspace-sync-placeholder';
/** The handler's desktop id (its file name), also the mark that finds our files again. */
export const OPENER_ID = 'workspace-sync-open.desktop';

export type OpenerPart = 'mimeType' | 'opener' | 'defaultApp';
export const PART_WORDS: Record<OpenerPart, MessageKey> = {
  mimeType: 'integrate.part.mimeType',
  opener: 'integrate.part.opener',
  defaultApp: 'integrate.part.defaultApp',
};

export interface OpenerFile {
  part: OpenerPart;
  file: string;
}

export interface OpenerResult {
  /** The files written or removed. */
  done: OpenerFile[];
  /** What could not be written or removed; the other parts were all the same. */
  failures: { part: OpenerPart; error: unknown }[];
  /** What the database tools said went wrong (a missing update-mime-database), one line each. */
  notes: Words[];
}

export function openerFiles(opts: IntegrationOptions): OpenerFile[] {
  const { data, config } = xdgDirs(opts);
  return [
    { part: 'mimeType', file: path.join(data, 'mime', 'packages', 'workspace-sync.xml') },
    { part: 'opener', file: path.join(data, 'applications', OPENER_ID) },
    { part: 'defaultApp', file: path.join(config, 'mimeapps.list') },
  ];
}

const OTHERS = LANGUAGES.filter((lang) => lang !== 'en').map((lang) => ({
  lang,
  t: (key: MessageKey) => translator(lang).t(key),
}));

const xmlText = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

function mimePackage(): string {
  const comment = (key: MessageKey) =>
    [`    <comment>${xmlText(english.t(key))}</comment>\n`]
      .concat(
        OTHERS.map((o) => `    <comment xml:lang="${o.lang}">${xmlText(o.t(key))}</comment>\n`),
      )
      .join('');
  // No double hyphen in the comment (XML forbids it: update-mime-database would skip the file
  // with exit status 0). A glob weight over the default 50: our suffix names the type, whatever the name before it
  // (`x.tar.wsync` is no tar) and whatever the text inside looks like.
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- ${OPENER_ID}: written by Workspace Sync (workspace-sync integrate, which also removes it) -->
<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
  <mime-type type="${PLACEHOLDER_TYPE}">
${comment('integrate.placeholderType')}    <generic-icon name="folder-download"/>
    <glob pattern="*${PLACEHOLDER_SUFFIX}" weight="60"/>
  </mime-type>
</mime-info>
`;
}

/**
 * The handler: hidden from menus (NoDisplay), for our type only. `%f`, after `--`: GLib and KIO
 * put the local path in as one argument whatever it holds (desktopExec quotes ours).
 */
function openerEntry(command: string[]): string {
  const local = (key: string, msg: MessageKey) =>
    `${key}=${keyFileValue(english.t(msg))}\n` +
    OTHERS.map((o) => `${key}[${o.lang}]=${keyFileValue(o.t(msg))}\n`).join('');
  return `[Desktop Entry]
# ${OPENER_ID}: written by Workspace Sync; "workspace-sync integrate --uninstall" removes it.
Type=Application
${local('Name', 'integrate.openerName')}${local('Comment', 'integrate.openerComment')}Icon=folder-download
Exec=${keyFileValue(desktopExec(command, '-- %f'))}
MimeType=${PLACEHOLDER_TYPE};
NoDisplay=true
Terminal=false
`;
}

async function eachPart(
  opts: IntegrationOptions,
  work: (part: OpenerFile) => Promise<boolean>,
): Promise<OpenerResult> {
  const result: OpenerResult = { done: [], failures: [], notes: [] };
  // A mimeapps.list we cannot write keeps neither the type nor the handler from being there.
  for (const part of openerFiles(opts)) {
    try {
      if (await work(part)) result.done.push(part);
    } catch (error) {
      result.failures.push({ part: part.part, error });
    }
  }
  // The databases again, for what changed: an uninstall that found nothing runs neither.
  const { data } = xdgDirs(opts);
  const changed = (p: OpenerPart) => result.done.some((d) => d.part === p);
  const tools = [
    ...(changed('mimeType') ? [[MIME_TOOL, path.join(data, 'mime')] as const] : []),
    ...(changed('opener') ? [[DESKTOP_TOOL, path.join(data, 'applications')] as const] : []),
  ];
  for (const [tool, dir] of tools) {
    const note = await runDatabaseTool(tool, dir, opts.env);
    if (note) result.notes.push(note);
  }
  return result;
}

/**
 * Writes the type, the handler (running `command`, then `--` and the placeholder's path) and the
 * default; again, it rewrites them (a moved program is followed) and changes nothing else.
 */
export function installOpener(opts: IntegrationOptions): Promise<OpenerResult> {
  return eachPart(opts, async ({ part, file }) => {
    if (part === 'mimeType') await writeAtomically(file, mimePackage(), 0o644);
    else if (part === 'opener') await writeAtomically(file, openerEntry(opts.command), 0o644);
    else await setDefaultApp(file, PLACEHOLDER_TYPE, OPENER_ID);
    return true;
  });
}

/** Removes our files and our line of mimeapps.list, nothing else. */
export function uninstallOpener(opts: IntegrationOptions): Promise<OpenerResult> {
  return eachPart(opts, async ({ part, file }) => {
    if (part === 'defaultApp') return unsetDefaultApp(file, PLACEHOLDER_TYPE, OPENER_ID);
    // A file of the same name that is not ours stays.
    if (!((await readIfAny(file))?.includes(OPENER_ID) ?? false)) return false;
    await rm(file, { force: true });
    return true;
  });
}
