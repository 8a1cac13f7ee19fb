import { english, type Translator } from '../../shared/i18n';
import { copyText } from '../os/clipboard';
import { notify } from '../os/notify';
import { isFileUri, localPathOf } from '../os/file-arg';
import { quoted, shareLinkForPath, type ShareLink } from '../links/link';
import {
  cliLanguage,
  CliError,
  commonOptions,
  EXIT,
  parseCommandLine,
  PROGRAM,
  proxyHelp,
  proxyOption,
  sayError,
  UsageError,
  writeLine,
  type CommandContext,
} from './common';
import { usageOf } from './connect';
import { tokenFrom } from './token';

export const linkUsage = (tr: Translator = english): string =>
  tr.t('cli.help.link', { program: PROGRAM, proxy: proxyHelp(21, tr) });

const linkOptions = {
  ...commonOptions,
  ...proxyOption,
  copy: { type: 'boolean' },
  notify: { type: 'boolean' },
  token: { type: 'string' },
  'token-file': { type: 'string' },
} as const;

export function parseLink(args: string[]) {
  const { values, positionals } = parseCommandLine('link', args, linkOptions);
  if (positionals.length === 0)
    throw new UsageError({ key: 'cli.err.required', params: { option: 'PATH' } }, 'link');
  // A file manager's entry may pass URIs (Nautilus, Nemo): the path each names.
  return { ...values, paths: positionals.map((p) => (isFileUri(p) ? localPathOf(p, '/') : p)) };
}

function notes(link: ShareLink, tr: Translator): string[] {
  const out: string[] = [];
  if (link.enabledNow) out.push(tr.t('cli.link.turnedOn', { kind: link.kind }));
  if (link.requirePassword) out.push(tr.t('cli.link.password'));
  if (link.expiresAt) out.push(tr.t('cli.link.until', { date: link.expiresAt }));
  return out;
}

export async function link(
  values: ReturnType<typeof parseLink>,
  ctx: CommandContext,
): Promise<number> {
  const { io, log } = ctx;
  const tr = cliLanguage(io.env);
  const tell = (summary: string, body: string, urgent = false) =>
    values.notify ? notify(summary, body, { env: io.env, urgent, log }) : Promise.resolve(false);
  try {
    if (values.paths.length > 1) {
      throw new CliError({ key: 'cli.err.oneAtATime', params: { n: values.paths.length } });
    }
    const found = await shareLinkForPath(values.paths[0]!, {
      stateDir: ctx.stateDir,
      accounts: ctx.accounts,
      env: io.env,
      log,
      token: await tokenFrom(values, io, 'link'),
    });
    writeLine(io.stdout, found.url);
    for (const line of notes(found, tr)) writeLine(io.stderr, line);
    let summary = tr.t('cli.link.summary', { name: quoted(found.name) });
    if (values.copy) {
      const { via } = await copyText(found.url, io.env);
      writeLine(io.stderr, tr.t('cli.copied', { name: quoted(found.name), via }));
      summary = tr.t('cli.link.copiedSummary', { name: quoted(found.name) });
    }
    log.info('share link', {
      kind: found.kind,
      enabledNow: found.enabledNow,
      copied: !!values.copy,
    });
    await tell(summary, [found.url, ...notes(found, tr)].join('\n'));
    return EXIT.ok;
  } catch (caught) {
    const err = usageOf(caught, 'link');
    await tell(tr.t('cli.link.failed'), sayError(tr, err), true);
    throw err;
  }
}
