import os from 'node:os';
import type { About, SyncPair } from '../../shared/app-api';

/**
 * What a person pastes into a support request: versions, each sync pair's state and its recent
 * problems. Never a token, a password or an email; file, folder, workspace and server names only
 * when the person ticks "include names" (paths are counted, names replaced by [name]).
 */

/** Problems listed per pair, newest first: enough to see a pattern, short enough to paste. */
const RECENT_PROBLEMS = 10;

export function aboutFacts(
  version: string,
  pairs: readonly SyncPair[],
  versions: NodeJS.ProcessVersions = process.versions,
): About {
  return {
    name: 'Workspace Sync',
    version,
    os: `${os.type()} ${os.release()} (${process.arch})`,
    node: versions.node,
    // The engine host is Electron's utility process in the app; `cli ui` is plain Node.
    electron: versions.electron ?? null,
    pairs: pairs.map((p) => ({
      pairId: p.id,
      workspaceName: p.workspaceName,
      state: p.status.state,
      paused: p.paused,
    })),
  };
}

const EMAIL = /[^\s@<>()"',;:/[\]]+@[^\s@<>()"',;:/[\]]+\.[A-Za-z]{2,}/g;
/**
 * A bearer credential, or anything shaped like a token: a run of 20 or more base64url, hex or
 * JWT characters holding both a letter and a digit (words and most names hold no digit), with a
 * part of 12 or more such characters between its dots and dashes: a token is random all through,
 * while a name joins short words (`ws-window-home-7gbK1W`, `report-2024-q3-final`).
 */
const TOKEN =
  /Bearer\s+\S+|(?=[A-Za-z0-9._~+=-]*\d)(?=[A-Za-z0-9._~+=-]*[A-Za-z])[A-Za-z0-9._~+=-]{20,}/g;
const RANDOM_PART = /[A-Za-z0-9]{12,}/;
const secretOf = (run: string) =>
  run.startsWith('Bearer') || RANDOM_PART.test(run) ? '[secret]' : run;
/** A URL's user:password@. */
const USERINFO = /(\/\/)[^/\s@]+@/g;

/**
 * `text` with every secret-shaped run and every name of `names` replaced. Names go longest
 * first, so a path is replaced whole before its parts; a name is matched anywhere (a message
 * quotes it in its own words).
 */
export function redact(text: string, names: readonly string[]): string {
  let out = text.replace(USERINFO, '$1[secret]@').replace(EMAIL, '[email]');
  for (const name of [...new Set(names)]
    .filter((n) => n.length > 0)
    .sort((a, b) => b.length - a.length))
    out = out.split(name).join('[name]');
  return out.replace(TOKEN, secretOf);
}

/** Every name a pair's status could quote: its folder, its workspace, each path and its parts. */
function namesOf(pair: SyncPair, server: string | null): string[] {
  const names = [pair.dir, pair.workspaceName];
  if (server) names.push(server, new URL(server).host);
  const paths = [
    ...pair.status.problems.map((p) => p.path),
    ...pair.status.conflicts.flatMap((c) => [c.path, c.copy ?? '']),
    pair.status.current?.path ?? '',
  ];
  for (const p of paths) {
    if (!p) continue;
    names.push(p);
    // A message may quote a path's last part, or a folder above it: every part of two or more
    // characters (one character would eat words of the message itself).
    for (const part of p.split(/[\\/]/)) if (part.length >= 2) names.push(part);
  }
  for (const part of pair.dir.split(/[\\/]/)) if (part.length >= 3) names.push(part);
  return names;
}

/** The text Copy diagnostics puts on the clipboard. */
export function diagnosticsText(input: {
  about: About;
  pairs: readonly SyncPair[];
  /** The server of each pair's account, by account id. */
  servers: ReadonlyMap<string, string>;
  /** Secrets the backend knows of (tokens, the demo's password): never in the text, whatever is ticked. */
  secrets?: readonly string[];
  includeNames: boolean;
  now?: Date;
}): string {
  const { about, pairs, includeNames } = input;
  const lines = [
    `${about.name} ${about.version}`,
    `OS: ${about.os}`,
    `Node ${about.node}${about.electron ? `, Electron ${about.electron}` : ' (the window in a browser, cli ui)'}`,
    `Created: ${(input.now ?? new Date()).toISOString()}`,
    `Synced folders: ${pairs.length}`,
  ];
  pairs.forEach((pair, i) => {
    const s = pair.status;
    const server = input.servers.get(pair.accountId) ?? null;
    // Even with names: emails and secrets go; without: the pair's names and paths too.
    const clean = (text: string) => redact(text, includeNames ? [] : namesOf(pair, server));
    // A name said because it was asked for is still cleaned of token-shaped runs (a shared
    // link's key saved as a file name, a token pasted into a folder's name).
    const named = (text: string) => redact(text, []);
    const problems = [...s.problems].sort((a, b) => b.at - a.at);
    lines.push('');
    lines.push(
      includeNames
        ? named(
            `Folder ${i + 1}: ${pair.workspaceName} in ${pair.dir}${server ? ` (${server})` : ''}`,
          )
        : `Folder ${i + 1}: workspace ${pair.workspaceId}`,
    );
    lines.push(`  State: ${s.state}${pair.paused ? ' (paused)' : ''}; ${clean(s.message)}`);
    lines.push(
      `  Last sync: ${s.lastSyncAt ? new Date(s.lastSyncAt).toISOString() : 'never'}; items ${s.items.done}/${s.items.total}; bytes ${s.bytes.done}/${s.bytes.total}`,
    );
    if (s.error) lines.push(`  Stopped by: ${s.error.kind}: ${clean(s.error.message)}`);
    if (s.backlog)
      lines.push(`  Backlog: ${s.backlog.changes} changes (${clean(s.backlog.reason)})`);
    if (s.held) lines.push(`  Held deletions: ${s.held.count} of ${s.held.total} (${s.held.side})`);
    lines.push(
      `  Conflicts: ${s.conflicts.length}; problems: ${problems.length} (${problems.filter((p) => p.dismissed).length} dismissed)`,
    );
    for (const p of problems.slice(0, RECENT_PROBLEMS))
      lines.push(
        `  - ${new Date(p.at).toISOString()} ${p.reason}: ${clean(p.message)}${includeNames ? ` [${named(p.path)}]` : ''}`,
      );
  });
  let text = lines.join('\n') + '\n';
  // Whatever was ticked, what the backend knows to be secret never leaves.
  for (const secret of input.secrets ?? [])
    if (secret.length >= 4) text = text.split(secret).join('[secret]');
  return text.replace(EMAIL, '[email]');
}
