import { afterEach, describe, expect, it, vi } from 'vitest';
import { PassThrough } from 'node:stream';
import { registerSecret } from '../../src/main/api/errors';
import { describeSummary, JsonReporter, TextReporter } from '../../src/main/cli/output';
import { emptySummary, initialStatus, type SyncStatus } from '../../src/shared/sync-status';

function sink() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => (text += d.toString()));
  return {
    out,
    lines: () => text.trimEnd().split('\n').filter(Boolean),
    json: () =>
      text
        .trimEnd()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { type: string } & Record<string, unknown>),
  };
}

const status = (patch: Partial<SyncStatus>): SyncStatus => ({ ...initialStatus(), ...patch });

afterEach(() => {
  vi.useRealTimers();
});

describe('JsonReporter', () => {
  it('writes status on a change of state or message, progress at most 5 a second, errors once', () => {
    vi.useFakeTimers();
    const s = sink();
    const r = new JsonReporter(s.out, () => Date.now());
    r.status(status({ state: 'scanning', message: 'Looking' }));
    r.status(status({ state: 'scanning', message: 'Looking' })); // no change: nothing
    for (let i = 1; i <= 50; i++) {
      r.status(
        status({
          state: 'syncing',
          message: 'Syncing 50 items',
          items: { done: i, total: 50 },
          bytes: { done: i * 10, total: 500 },
          current: { op: 'download', path: `f${i}` },
        }),
      );
      vi.advanceTimersByTime(20); // 50 updates in one second
    }
    vi.advanceTimersByTime(1000);
    const error = { kind: 'network', message: 'Cannot reach the service', at: 1 };
    r.status(status({ state: 'offline', message: 'Offline', lastError: error }));
    r.status(status({ state: 'offline', message: 'Offline', lastError: error }));
    r.summary({ ...emptySummary(), filesDownloaded: 50 });
    r.close();

    const out = s.json();
    expect(out.filter((o) => o.type === 'status').map((o) => o.state)).toEqual([
      'scanning',
      'syncing',
      'offline',
    ]);
    const progress = out.filter((o) => o.type === 'progress');
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.length).toBeLessThanOrEqual(8);
    // The last update is never lost to the throttle.
    expect(progress.some((p) => (p.items as { done: number }).done === 50)).toBe(true);
    // The step in words beside the data.
    expect(progress.find((p) => (p.items as { done: number }).done === 50)).toMatchObject({
      step: 'Downloading f50',
    });
    expect(out.filter((o) => o.type === 'error')).toEqual([
      { type: 'error', kind: 'network', message: 'Cannot reach the service' },
    ]);
    expect(out.at(-1)).toMatchObject({ type: 'summary', filesDownloaded: 50 });
  });

  it('scrubs registered secrets from whatever it writes', () => {
    registerSecret('reporter-secret-77');
    const s = sink();
    const r = new JsonReporter(s.out);
    r.problem({ path: 'a', remoteId: 1, reason: 'error', message: 'x reporter-secret-77', at: 1 });
    r.error('internal', 'Bearer abcdef failed');
    r.close();
    expect(s.lines().join('\n')).not.toContain('reporter-secret-77');
    expect(s.lines().join('\n')).not.toContain('abcdef');
  });
});

describe('TextReporter', () => {
  it('writes a line per change of state, problem, conflict and notice, and a summary, without a bar off a terminal', () => {
    const s = sink();
    const r = new TextReporter(s.out, false, () => new Date(2026, 0, 1, 9, 5, 7).getTime());
    r.status(status({ state: 'scanning', message: 'Looking for changes' }));
    r.status(
      status({ state: 'syncing', message: 'Syncing 3 items', items: { done: 1, total: 3 } }),
    );
    r.status(
      status({ state: 'syncing', message: 'Syncing 3 items', items: { done: 2, total: 3 } }),
    );
    r.problem({
      path: 'Reports/x.pdf',
      remoteId: 3,
      reason: 'not-permitted',
      message: 'Not permitted',
      at: 1,
    });
    r.conflict({ path: 'Plan.txt', message: 'Changed on both sides: both kept.', at: 2 });
    r.notice({ message: 'Watching by polling.', at: 3 });
    r.summary({
      ...emptySummary(),
      foldersCreated: 1,
      filesDownloaded: 2,
      bytesDownloaded: 3 * 1024 * 1024,
    });
    r.close();
    expect(s.lines()).toEqual([
      '09:05:07  Looking for changes',
      '09:05:07  Syncing 3 items',
      'Problem: Reports/x.pdf: Not permitted',
      'Conflict: Plan.txt: Changed on both sides: both kept.',
      'Note: Watching by polling.',
      'Sync complete: 1 folder created, 2 files downloaded (3.1 MB), 0 moved, 0 moved to the trash, 0 conflicts, 0 problems.',
    ]);
  });

  it('says what to do when the engine needs attention', () => {
    const s = sink();
    const r = new TextReporter(s.out, false, () => new Date(2026, 0, 1, 9, 5, 7).getTime());
    r.status(
      status({
        state: 'needs-attention',
        message: '24 items were removed here: confirm to delete them on the service too',
        lastError: { kind: 'mass-delete', message: 'Run again with --confirm-deletes.', at: 1 },
      }),
    );
    r.close();
    expect(s.lines()).toEqual([
      '09:05:07  24 items were removed here: confirm to delete them on the service too',
      '          Run again with --confirm-deletes.',
    ]);
  });

  it('says each line of a failure and its retries once, until the failure is over', () => {
    const s = sink();
    const r = new TextReporter(s.out, false, () => new Date(2026, 0, 1, 9, 5, 7).getTime());
    const full = 'The disk holding /home/a/W is full: free some space; syncing resumes by itself.';
    r.status(status({ state: 'scanning', message: 'Looking at everything on the service' }));
    r.status(status({ state: 'syncing', message: 'Syncing 20 items' }));
    r.status(status({ state: 'error', message: full }));
    for (let retry = 0; retry < 3; retry++) {
      r.status(status({ state: 'scanning', message: 'Looking at everything on the service' }));
      r.status(status({ state: 'syncing', message: 'Syncing 1 item' }));
      r.status(status({ state: 'error', message: full }));
    }
    r.status(status({ state: 'syncing', message: 'Syncing 1 item' }));
    r.status(status({ state: 'idle', message: 'Up to date' }));
    r.status(status({ state: 'syncing', message: 'Syncing 1 item' }));
    r.close();
    expect(s.lines()).toEqual([
      '09:05:07  Looking at everything on the service',
      '09:05:07  Syncing 20 items',
      `09:05:07  ${full}`,
      '09:05:07  Syncing 1 item',
      '09:05:07  Up to date',
      '09:05:07  Syncing 1 item',
    ]);
  });

  it('says what was sent to the service only when something was', () => {
    expect(describeSummary(emptySummary())).not.toContain('sent to the service');
    expect(
      describeSummary({
        ...emptySummary(),
        uploaded: 2,
        bytesUploaded: 1024 * 1024,
        remoteMoved: 1,
      }),
    ).toContain(
      'sent to the service: 0 folders created, 2 files uploaded (1.0 MB), 1 moved, 0 deleted',
    );
  });

  it('writes counts as the progress bar does', () => {
    expect(
      describeSummary({ ...emptySummary(), filesDownloaded: 2000, foldersCreated: 1234 }),
    ).toContain('1,234 folders created, 2,000 files downloaded');
  });

  it('describes a summary in words', () => {
    expect(describeSummary({ ...emptySummary(), conflicts: 1, requests: 12 })).toContain(
      '1 conflict, 0 problems, 12 requests',
    );
  });
});
