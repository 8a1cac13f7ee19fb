import { readRunning, type SeenRecord } from '../state/running';
import { english, type Translator } from '../../shared/i18n';
import {
  cliLanguage,
  commonOptions,
  EXIT,
  parseOptions,
  PROGRAM,
  writeLine,
  type CommandContext,
} from './common';

export const statusUsage = (tr: Translator = english): string =>
  tr.t('cli.help.status', { program: PROGRAM });

/** `systemctl status`'s answer for a unit that is not running. */
export const NOT_RUNNING = 3;

export const statusOptions = { json: { type: 'boolean' }, ...commonOptions } as const;

export const parseStatus = (args: string[]) => parseOptions('status', args, statusOptions);

/** "3 min ago", "2 h ago", "just now": how long ago, as a person says it. */
export function ago(at: number, now = Date.now(), tr: Translator = english): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 10) return tr.t('cli.ago.now');
  if (s < 90) return tr.t('cli.ago.seconds', { n: s });
  if (s < 90 * 60) return tr.t('cli.ago.minutes', { n: Math.round(s / 60) });
  if (s < 36 * 3600) return tr.t('cli.ago.hours', { n: Math.round(s / 3600) });
  return tr.t('cli.ago.days', { n: Math.round(s / 86400) });
}

/** "2026-11-25 04:10": a local time, sortable, the same in every locale. */
function stamp(at: number): string {
  const d = new Date(at);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** States whose last pass did not succeed (a workspace gone among them). */
const FAILED = new Set(['error', 'offline', 'needs-attention', 'gone']);

function describe(r: SeenRecord, now: number, tr: Translator): string[] {
  const where = { dir: r.dir, id: String(r.workspaceId), server: r.server };
  const head = r.user
    ? tr.t('cli.status.headAs', { ...where, user: r.user })
    : tr.t('cli.status.head', where);
  const pid = String(r.pid);
  const facts = r.running
    ? [
        r.message,
        r.lastSyncAt === null
          ? tr.t('cli.status.notSynced')
          : // In a failed state the time is of the last pass that succeeded, not the attempt.
            tr.t(FAILED.has(r.state) ? 'cli.status.lastSuccess' : 'cli.status.lastSync', {
              ago: ago(r.lastSyncAt, now, tr),
            }),
        tr.t('cli.status.pid', { pid, since: stamp(r.startedAt) }),
      ]
    : [
        tr.t('cli.status.notRunning', {
          pid,
          ago: ago(r.updatedAt, now, tr),
          message: r.message,
        }),
      ];
  const lines = [head, `  ${facts.join(' · ')}`];
  // The state's message often is the error's own words (a gone workspace): said once.
  if (r.running && r.lastError && r.lastError.message !== r.message)
    lines.push(`  ${tr.t('cli.status.error', { message: r.lastError.message })}`);
  if (r.problemCount > 0) {
    lines.push(`  ${tr.t('cli.status.problems', { n: r.problemCount })}`);
    for (const p of r.problems)
      lines.push(`    ${p.path || tr.t('cli.status.theFolder')}: ${p.message}`);
    if (r.problemCount > r.problems.length) {
      lines.push(`    ${tr.t('cli.status.more', { n: r.problemCount - r.problems.length })}`);
    }
  }
  if (r.conflictCount > 0) {
    lines.push(`  ${tr.t('cli.status.conflicts', { n: r.conflictCount })}`);
  }
  return lines;
}

export async function status(
  values: ReturnType<typeof parseStatus>,
  ctx: CommandContext,
): Promise<number> {
  const records = await readRunning(ctx.stateDir);
  const out = ctx.io.stdout;
  const tr = cliLanguage(ctx.io.env);
  if (values.json) {
    for (const r of records) writeLine(out, JSON.stringify(r));
  } else if (records.length === 0) {
    writeLine(out, tr.t('cli.status.none', { dir: ctx.stateDir }));
  } else {
    const now = Date.now();
    records.forEach((r, i) => {
      if (i > 0) writeLine(out, '');
      for (const line of describe(r, now, tr)) writeLine(out, line);
    });
  }
  return records.some((r) => r.running) ? EXIT.ok : NOT_RUNNING;
}
