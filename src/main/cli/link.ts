import { english, type Translator } from '../../shared/i18n';
import { copyText } from '../os/clipboard';
import { notify } from '../os/notify';
import { quoted, shareLinkForPath, type ShareLink } from '../links/link';
import {
  cliLanguage,
  CliError,
  commonOptions,
  EXIT,
  messageOf,
  parseCommandLine,
  PROGRAM,
  proxyHelp,
  proxyOption,
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
  if (positionals.length === 0) throw new UsageError('PATH is required', 'link');
  return { ...values, paths: positionals };
}

function notes(link: ShareLink): string[] {
  const out: string[] = [];
  if (link.enabledNow)
    out.push(`The link was turned off: it is on now, so anyone with it can open the ${link.kind}.`);
  if (link.requirePassword) out.push("Opening it asks for the link's password.");
  if (link.expiresAt) out.push(`It works until ${link.expiresAt}.`);
  return out;
}

export async function link(
  values: ReturnType<typeof parseLink>,
  ctx: CommandContext,
): Promise<number> {
  const { io, log } = ctx;
  const tell = (summary: string, body: string, urgent = false) =>
    values.notify ? notify(summary, body, { env: io.env, urgent, log }) : Promise.resolve(false);
  try {
    if (values.paths.length > 1) {
      throw new CliError(
        `Choose one file or folder at a time (${values.paths.length} were given).`,
      );
    }
    const found = await shareLinkForPath(values.paths[0]!, {
      stateDir: ctx.stateDir,
      accounts: ctx.accounts,
      env: io.env,
      log,
      token: await tokenFrom(values, io, 'link'),
    });
    writeLine(io.stdout, found.url);
    for (const line of notes(found)) writeLine(io.stderr, line);
    let summary = `Link of ${quoted(found.name)}`;
    if (values.copy) {
      const { via } = await copyText(found.url, io.env);
      writeLine(io.stderr, cliLanguage(io.env).t('cli.copied', { name: quoted(found.name), via }));
      summary = `Copied the link of ${quoted(found.name)}`;
    }
    log.info('share link', {
      kind: found.kind,
      enabledNow: found.enabledNow,
      copied: !!values.copy,
    });
    await tell(summary, [found.url, ...notes(found)].join('\n'));
    return EXIT.ok;
  } catch (caught) {
    const err = usageOf(caught, 'link');
    await tell('Workspace Sync could not copy the link', messageOf(err), true);
    throw err;
  }
}
