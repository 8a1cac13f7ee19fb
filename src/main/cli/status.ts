import { readRunning, type SeenRecord } from '../state/running';
import {
  commonOptions,
  EXIT,
  parseOptions,
  PROGRAM,
  writeLine,
  type CommandContext,
} from './common';

export const STATUS_USAGE = `usage: ${PROGRAM} status [--json] [options]

Says what the syncs running on this computer (under this state directory) are doing: each pair
(folder, workspace, server, account), its state, its last sync and its problems. It starts no
sync and makes no request: it reads what each running "sync" keeps in the state directory.

  --json         one JSON object per pair, a line each (running: false for a sync that ended
                 without closing, e.g. killed)
  --state DIR    state directory (default: $WORKSPACE_SYNC_STATE or the platform's)
  --verbose      mirror the log to stderr; stack traces on failure
  -h, --help     this text

exit status: 0 at least one sync is running, 3 none is, 1 the state could not be read`;

/** `systemctl status`'s answer for a unit that is not running. */
export const NOT_RUNNING = 3;

export const statusOptions = { json: { type: 'boolean' }, ...commonOptions } as const;

export const parseStatus = (args: string[]) => parseOptions('status', args, statusOptions);

/** "3 min ago", "2 h ago", "just now": how long ago, as a person says it. */
export function ago(at: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 10) return 'just now';
  if (s < 90) return `${s} s ago`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min ago`;
  if (s < 36 * 3600) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} days ago`;
}

/** "2026-11-25 04:10": a local time, sortable, the same in every locale. */
function stamp(at: number): string {
  const d = new Date(at);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function describe(r: SeenRecord, now: number): string[] {
  const head = `${r.dir} ⇄ workspace ${r.workspaceId} on ${r.server}${r.user ? ` as ${r.user}` : ''}`;
  const facts = r.running
    ? [
        r.message,
        r.lastSyncAt === null ? 'not synced yet' : `last sync ${ago(r.lastSyncAt, now)}`,
        `pid ${r.pid}, running since ${stamp(r.startedAt)}`,
      ]
    : [
        `not running: it ended without closing (pid ${r.pid}); last seen ${ago(r.updatedAt, now)}, "${r.message}"`,
      ];
  const lines = [head, `  ${facts.join(' · ')}`];
  if (r.running && r.lastError) lines.push(`  error: ${r.lastError.message}`);
  if (r.problemCount > 0) {
    lines.push(`  ${plural(r.problemCount, 'problem', 'problems')}:`);
    for (const p of r.problems) lines.push(`    ${p.path || '(the folder)'}: ${p.message}`);
    if (r.problemCount > r.problems.length) {
      lines.push(`    … and ${(r.problemCount - r.problems.length).toLocaleString('en-US')} more`);
    }
  }
  if (r.conflictCount > 0) {
    lines.push(
      `  ${plural(r.conflictCount, 'conflict', 'conflicts')} settled recently (see the log)`,
    );
  }
  return lines;
}

export async function status(
  values: ReturnType<typeof parseStatus>,
  ctx: CommandContext,
): Promise<number> {
  const records = await readRunning(ctx.stateDir);
  const out = ctx.io.stdout;
  if (values.json) {
    for (const r of records) writeLine(out, JSON.stringify(r));
  } else if (records.length === 0) {
    writeLine(out, `No sync is running (state directory ${ctx.stateDir}).`);
  } else {
    const now = Date.now();
    records.forEach((r, i) => {
      if (i > 0) writeLine(out, '');
      for (const line of describe(r, now)) writeLine(out, line);
    });
  }
  return records.some((r) => r.running) ? EXIT.ok : NOT_RUNNING;
}
