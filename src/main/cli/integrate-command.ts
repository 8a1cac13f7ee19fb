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

const listed = (files: IntegrationFile[]) => files.map((f) => `${f.fileManager}: ${f.file}`);

export async function integrate(
  values: ReturnType<typeof parseIntegrate>,
  ctx: CommandContext,
): Promise<number> {
  const { io, log } = ctx;
  const tr = cliLanguage(io.env);
  const opts = {
    command: [...cliLauncher(io.env), 'link', '--copy', '--notify', '--state', ctx.stateDir],
    env: io.env,
    home: io.env.HOME || homedir(),
  };
  try {
    if (values.install) {
      const written = await installIntegrations(opts);
      for (const line of listed(written)) writeLine(io.stdout, line);
      writeLine(io.stderr, tr.t('cli.integrate.added', { label: tr.t('integrate.menuLabel') }));
      log.info('file-manager entries installed', { files: written.map((f) => f.file) });
    } else {
      const removed = await uninstallIntegrations(opts);
      for (const line of listed(removed)) writeLine(io.stdout, line);
      writeLine(
        io.stderr,
        removed.length > 0
          ? tr.t('cli.integrate.removed', { label: tr.t('integrate.menuLabel') })
          : tr.t('cli.integrate.nothing'),
      );
      log.info('file-manager entries removed', { files: removed.map((f) => f.file) });
    }
    return EXIT.ok;
  } catch (err) {
    if (!(err instanceof IntegrationError)) throw wordsOf(err) ? err : new CliError(messageOf(err));
    for (const line of listed(err.done)) writeLine(io.stdout, line);
    // Each manager's failure in the CLI's language where it has words (a broken uca.xml).
    const failures = err.failures.map((f) => `${f.fileManager}: ${sayError(tr, f.error)}`);
    throw new CliError({
      key: 'cli.integrate.failed',
      params: { verb: err.verb, failures: failures.join(' ') },
    });
  }
}
