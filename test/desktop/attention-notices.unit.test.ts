import { describe, expect, it } from 'vitest';
import type { SyncPair } from '../../src/shared/app-api';
import { initialStatus, type SyncStatus } from '../../src/shared/sync-status';
import { pairStatusOf } from '../../src/main/backend/map';
import {
  AttentionNotices,
  summarizeCauses,
  type AttentionCause,
} from '../../src/main/platform/attention-notices';
import { NoticeBatcher, type Notice, type Timers } from '../../src/main/platform/notify-batch';

// Notifications for what needs the person, from pair statuses as the backend pushes them
// (pairStatusOf over engine statuses): a new conflict, a sign-out, a full disk, each once per
// cause, batched like others' events (NoticeBatcher, on a clock the test moves).

function clock() {
  let now = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  let next = 1;
  const t: Timers = {
    set: (fn, ms) => {
      timers.set(next, { at: now + ms, fn });
      return next++;
    },
    clear: (h) => void timers.delete(h as number),
  };
  return {
    timers: t,
    advance(ms: number) {
      now += ms;
      for (const [h, x] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
        if (x.at <= now && timers.has(h)) {
          timers.delete(h);
          x.fn();
        }
      }
    },
  };
}

const pair = (id: string, patch: Partial<SyncStatus>): SyncPair => ({
  id,
  accountId: 'a',
  workspaceId: 1,
  workspaceName: id === 'p1' ? 'Q3 Planning' : 'Design',
  dir: `/home/ann/${id}`,
  paused: false,
  status: pairStatusOf({ ...initialStatus(), state: 'idle', message: 'Up to date', ...patch }),
});
const conflict = (id: number, path: string) => ({
  id,
  path,
  copy: `${path} (conflict)`,
  message: 'both kept',
  at: id,
});
const FULL = 'The disk holding /home/ann/p1 is full: free some space; syncing resumes by itself.';
const full = (at: number): Partial<SyncStatus> => ({
  state: 'error',
  message: FULL,
  lastError: { kind: 'disk-full', message: FULL, at },
});
const OUT = 'You are signed out: sign in again to continue syncing.';

function setup() {
  const c = clock();
  const notices: Notice[] = [];
  const causes = new AttentionNotices();
  const batcher = new NoticeBatcher<AttentionCause>({
    quietMs: 2000,
    maxWaitMs: 10_000,
    notify: (n) => notices.push(n),
    timers: c.timers,
    summarize: summarizeCauses,
  });
  const push = (p: SyncPair) => batcher.add(causes.update(p));
  return { c, notices, push, batcher };
}

describe('notifications of what needs the person', () => {
  it('a new conflict once, clickable to its pair; not those there when the app started', () => {
    const { c, notices, push } = setup();
    push(pair('p1', { conflicts: [conflict(1, 'old.txt')] }));
    c.advance(5000);
    expect(notices).toEqual([]);
    push(pair('p1', { conflicts: [conflict(1, 'old.txt'), conflict(2, 'Docs/Budget.txt')] }));
    push(pair('p1', { conflicts: [conflict(1, 'old.txt'), conflict(2, 'Docs/Budget.txt')] }));
    c.advance(2000);
    expect(notices).toEqual([
      {
        title: 'Q3 Planning',
        body: 'Budget.txt was changed here and on the service: both versions are kept; choose one in Workspace Sync.',
        target: { kind: 'pair', pairId: 'p1' },
      },
    ]);
    // Settled, then a later status: nothing more.
    push(pair('p1', { conflicts: [] }));
    c.advance(5000);
    expect(notices).toHaveLength(1);
  });

  it('a full disk once however often retried, and again after it was over', () => {
    const { c, notices, push } = setup();
    push(pair('p1', {}));
    push(pair('p1', full(1)));
    push(pair('p1', { ...full(2), state: 'syncing' })); // the retry under way
    push(pair('p1', full(3)));
    c.advance(2000);
    expect(notices.map((n) => n.body)).toEqual([FULL]);
    push(pair('p1', {}));
    push(pair('p1', full(4)));
    c.advance(2000);
    expect(notices.map((n) => n.body)).toEqual([FULL, FULL]);
  });

  it('a sign-out, with what to do', () => {
    const { c, notices, push } = setup();
    push(pair('p1', {}));
    push(
      pair('p1', {
        state: 'needs-attention',
        message: OUT,
        lastError: { kind: 'signed-out', message: OUT, at: 1 },
      }),
    );
    c.advance(2000);
    expect(notices).toEqual([
      { title: 'Q3 Planning', body: OUT, target: { kind: 'pair', pairId: 'p1' } },
    ]);
  });

  it('several at once: one notice', () => {
    const { c, notices, push } = setup();
    push(pair('p1', {}));
    push(pair('p2', {}));
    push(pair('p1', { conflicts: [conflict(1, 'a.txt'), conflict(2, 'b.txt')] }));
    push(
      pair('p2', {
        state: 'needs-attention',
        message: OUT,
        lastError: { kind: 'signed-out', message: OUT, at: 1 },
      }),
    );
    c.advance(1000);
    expect(notices).toEqual([]);
    c.advance(1000);
    expect(notices).toEqual([
      {
        title: 'Workspace Sync',
        body: '2 conflicts to settle; signed out: sign in again to continue syncing in 2 folders.',
        target: { kind: 'pair', pairId: 'p1' },
      },
    ]);
  });

  it('none while notifications are off', () => {
    const { c, notices, push, batcher } = setup();
    batcher.setEnabled(false);
    push(pair('p1', {}));
    push(pair('p1', { conflicts: [conflict(1, 'a.txt')] }));
    c.advance(5000);
    expect(notices).toEqual([]);
  });
});
