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

export const LINK_USAGE = `usage: ${PROGRAM} link PATH [--copy] [options]

Prints the share link of a synced file or folder: the address at which anyone with the link
opens it. A link that is turned off is turned on first, as "Copy link" does in the window (your
role must allow changing links: Moderator and above), and the command says so.

  --copy             also put the link on the clipboard (wl-copy, xclip or xsel on Linux)
  --notify           also say how it went in a desktop notification (notify-send), for file
                     manager menus, which show no terminal
  --token-file PATH  read an access token for the folder's server from PATH (- for standard
                     input); default: $WORKSPACE_SYNC_TOKEN, else the remembered account that
                     syncs the folder
  --token TOKEN      the same, from the command line (visible to every user in ps: avoid)
${proxyHelp(21)}
  --state DIR        state directory: settings, journals, logs, trash
                     (default: $WORKSPACE_SYNC_STATE or the platform's)
  --verbose          mirror the log to stderr; stack traces on failure
  -h, --help         this text

The link goes to stdout, on one line; what else happened (copied, turned on) to stderr.
Exit status 1 when PATH is not synced (yet), or the service refused.

examples:
  ${PROGRAM} link ~/Q3/Reports/Summary.pdf
  ${PROGRAM} link --copy ~/Q3/Reports`;

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
