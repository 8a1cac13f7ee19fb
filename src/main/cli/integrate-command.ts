import { english, wordsOf, type Translator } from '../../shared/i18n';
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import {
  cliLanguage,
  CliError,
  commonOptions,
  EXIT,
  messageOf,
  parseOptions,
  sayError,
  PROGRAM,
  UsageError,
  writeLine,
  type CommandContext,
} from './common';
import {
  installIntegrations,
  IntegrationError,
  uninstallIntegrations,
  type IntegrationFile,
} from '../os/integrate';
import {
  COPY_LINK,
  LINK_OPTIONS,
  FILE_ACTIONS,
  FILE_ENTRIES,
  type FileAction,
  type MenuEntry,
} from '../os/menu-entry';
import { installOpener, PART_WORDS, uninstallOpener, type OpenerResult } from '../os/open-handler';
import { packageRoot } from '../core/package-root';

export const integrateUsage = (tr: Translator = english): string =>
  tr.t('cli.help.integrate', { program: PROGRAM, label: tr.t('integrate.menuLabel') });

export const integrateOptions = {
  ...commonOptions,
  install: { type: 'boolean' },
  uninstall: { type: 'boolean' },
} as const;

export function parseIntegrate(args: string[]) {
  const values = parseOptions('integrate', args, integrateOptions);
  if (values.install === values.uninstall)
    throw new UsageError({ key: 'cli.err.installOrUninstall' }, 'integrate');
  return values;
}

/**
 * How a file manager starts this CLI: absolute paths only (it has another working directory
 * and no terminal). From source (a .ts entry run through tsx) that is the bin launcher, which
 * registers tsx itself wherever it is started from. In the packaged app the CLI is the app
 * binary with --cli (its RunAsNode fuse is off); in an AppImage that binary is the image
 * ($APPIMAGE), not the temporary mount it runs from.
 */
export function cliLauncher(env: NodeJS.ProcessEnv): string[] {
  if (process.versions.electron) return [env.APPIMAGE || process.execPath, '--cli'];
  const argv1 = process.argv[1];
  const entry = argv1 ? realpathSync(argv1) : '';
  if (entry === '' || /\.[cm]?tsx?$/.test(entry)) {
    const bin = path.join(packageRoot(import.meta.dirname) ?? '.', 'bin/workspace-sync.mjs');
    if (!existsSync(bin))
      throw new CliError({ key: 'cli.err.noLauncher', params: { program: PROGRAM, bin } });
    return [process.execPath, bin];
  }
  return [process.execPath, entry];
}

/**
 * What a placeholder's double-click runs: where integrate runs from the installed app (its
 * launcher is the app with --cli), the app itself with `--open` (issue 41: "a .desktop handler
 * that runs the app (--open PATH) or, without it, the CLI"): the running instance's engine
 * downloads the file, or the app starts and does; else the CLI's `files open`.
 */
export function openerCommand(launcher: readonly string[], state: readonly string[]): string[] {
  if (launcher.at(-1) === '--cli') return [...launcher.slice(0, -1), '--open'];
  return [...launcher, 'files', 'open', '--notify', ...state];
}

/**
 * What a files-on-demand menu entry runs: the app with `--files ACTION` where integrate runs from
 * the installed app (its own engines do it, as for `--open`), else the CLI's `files ACTION
 * --notify`.
 */
export function filesCommand(
  launcher: readonly string[],
  action: FileAction,
  state: readonly string[],
): string[] {
  if (launcher.at(-1) === '--cli') return [...launcher.slice(0, -1), '--files', action];
  return [...launcher, 'files', action, '--notify', ...state];
}

/** Each file once (Thunar's uca.xml holds every entry of ours). */
const listed = (files: IntegrationFile[]) => [
  ...new Set(files.map((f) => `${f.fileManager}: ${f.file}`)),
];

interface MenusOutcome {
  done: IntegrationFile[];
  /** The ids of the entries that had a file written or removed. */
  entries: Set<string>;
  failures: IntegrationError['failures'];
}

/** The menus' outcome, entry after entry: the files done, and the failures of each. */
async function settled(
  entries: { entry: MenuEntry; command: string[] }[],
  work: (entry: MenuEntry, command: string[]) => Promise<IntegrationFile[]>,
): Promise<MenusOutcome> {
  const out: MenusOutcome = { done: [], entries: new Set(), failures: [] };
  for (const { entry, command } of entries) {
    let done: IntegrationFile[];
    try {
      done = await work(entry, command);
    } catch (err) {
      if (!(err instanceof IntegrationError))
        throw wordsOf(err) ? err : new CliError(messageOf(err));
      done = err.done;
      out.failures.push(...err.failures);
    }
    out.done.push(...done);
    if (done.length > 0) out.entries.add(entry.id);
  }
  return out;
}

export async function integrate(
  values: ReturnType<typeof parseIntegrate>,
  ctx: CommandContext,
): Promise<number> {
  const { io, log } = ctx;
  const tr = cliLanguage(io.env);
  const launcher = cliLauncher(io.env);
  const state = ['--state', ctx.stateDir];
  const opts = { env: io.env, home: io.env.HOME || homedir() };
  // Copy the link, then files on demand's four (issue 41), several items in one run.
  const entries = [
    { entry: COPY_LINK, command: [...launcher, 'link', '--copy', '--notify', ...state] },
    // Its options (issue 42): `cli ui`'s page at the item's link panel.
    { entry: LINK_OPTIONS, command: [...launcher, 'ui', '--link-options', ...state] },
    ...FILE_ACTIONS.map((a) => ({
      entry: FILE_ENTRIES[a],
      command: filesCommand(launcher, a, state),
    })),
  ];
  // The placeholders' opener (issue 41) beside the menus: one's trouble does not stop the other.
  const openOpts = { ...opts, command: openerCommand(launcher, state) };
  const install = values.install === true;
  const menus = await settled(entries, (entry, command) =>
    install
      ? installIntegrations({ ...opts, command }, entry)
      : uninstallIntegrations({ ...opts, command }, entry),
  );
  const opener = await (install ? installOpener(openOpts) : uninstallOpener(openOpts));
  for (const line of listed(menus.done)) writeLine(io.stdout, line);
  for (const f of opener.done) writeLine(io.stdout, `${tr.t(PART_WORDS[f.part])}: ${f.file}`);
  for (const note of opener.notes) writeLine(io.stderr, tr.say(note));
  const files = [...menus.done.map((f) => f.file), ...opener.done.map((f) => f.file)];
  log.info(`file-manager entries ${install ? 'installed' : 'removed'}`, { files });
  if (menus.failures.length > 0 || opener.failures.length > 0) {
    throw failedWords(tr, install, menus, opener);
  }
  const label = tr.t('integrate.menuLabel');
  const optionsLabel = tr.t(LINK_OPTIONS.label);
  const fileLabels = FILE_ACTIONS.map((a) => tr.t(FILE_ENTRIES[a].label));
  if (install) {
    writeLine(io.stderr, tr.t('cli.integrate.added', { label }));
    writeLine(io.stderr, tr.t('cli.integrate.added', { label: optionsLabel }));
    writeLine(io.stderr, tr.t('cli.integrate.filesAdded', { labels: fileLabels.join(', ') }));
    // Only when it is so: without the MIME database, the type is not known.
    if (opener.notes.length === 0) writeLine(io.stderr, tr.t('cli.integrate.openerAdded'));
  } else {
    if (menus.entries.has(COPY_LINK.id))
      writeLine(io.stderr, tr.t('cli.integrate.removed', { label }));
    if (menus.entries.has(LINK_OPTIONS.id))
      writeLine(io.stderr, tr.t('cli.integrate.removed', { label: optionsLabel }));
    if (FILE_ACTIONS.some((a) => menus.entries.has(FILE_ENTRIES[a].id)))
      writeLine(io.stderr, tr.t('cli.integrate.filesRemoved', { labels: fileLabels.join(', ') }));
    if (opener.done.length > 0) writeLine(io.stderr, tr.t('cli.integrate.openerRemoved'));
    if (files.length === 0) writeLine(io.stderr, tr.t('cli.integrate.nothing'));
  }
  return EXIT.ok;
}

/** Each failure in the CLI's language where it has words (a broken uca.xml). */
function failedWords(
  tr: Translator,
  install: boolean,
  menus: MenusOutcome,
  opener: OpenerResult,
): CliError {
  // A broken uca.xml fails every entry of ours the same way: said once.
  const failures = [
    ...new Set(menus.failures.map((f) => `${f.fileManager}: ${sayError(tr, f.error)}`)),
    ...opener.failures.map((f) => `${tr.t(PART_WORDS[f.part])}: ${sayError(tr, f.error)}`),
  ];
  return new CliError({
    key: 'cli.integrate.failed',
    params: { verb: install ? 'write' : 'remove', failures: failures.join(' ') },
  });
}
