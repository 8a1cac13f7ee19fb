import { describe, expect, it } from 'vitest';
import { Inbox, type Action } from '../../src/main/sync/loop/inbox';

// The engine's inbox (loop/inbox.ts): a person's actions are applied at once when no pass runs,
// else at the loop's next safe point, in the order they came, each answered with its outcome.

/** An inbox that records what it applied; `slow` actions wait for `release`. */
function recording() {
  const applied: string[] = [];
  let release = () => {};
  const inbox = new Inbox((a: Action) => {
    if (a.kind === 'dismiss-problem') throw new Error(`no problem ${a.key}`);
    applied.push(a.kind);
    if (a.kind === 'choose-for-conflict') {
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    }
  });
  return { inbox, applied, release: () => release() };
}

describe('the inbox', () => {
  it('applies an action at once when no pass runs', async () => {
    const { inbox, applied } = recording();
    const done = inbox.send({ kind: 'pause' });
    expect(applied).toEqual(['pause']);
    await done;
  });

  it('keeps actions that come during a pass until the next safe point, in order', async () => {
    const { inbox, applied } = recording();
    await inbox.passStarts();
    const a = inbox.send({ kind: 'pause' });
    const b = inbox.send({ kind: 'resume' });
    expect(applied).toEqual([]);
    await inbox.between();
    expect(applied).toEqual(['pause', 'resume']);
    await Promise.all([a, b]);
    const c = inbox.send({ kind: 'confirm-deletes' });
    expect(applied).toHaveLength(2);
    await inbox.passEnds();
    expect(applied).toEqual(['pause', 'resume', 'confirm-deletes']);
    await c;
  });

  it('answers a refusal to its caller, and goes on with the next action', async () => {
    const { inbox, applied } = recording();
    await inbox.passStarts();
    const refused = inbox.send({ kind: 'dismiss-problem', key: 'k' });
    const next = inbox.send({ kind: 'pause' });
    await inbox.passEnds();
    await expect(refused).rejects.toThrow('no problem k');
    await next;
    expect(applied).toEqual(['pause']);
  });

  it('starts no pass while an action is still being applied', async () => {
    const { inbox, applied, release } = recording();
    const settled = inbox.send({ kind: 'choose-for-conflict', id: 1, keep: 'mine' });
    const later = inbox.send({ kind: 'pause' });
    let started = false;
    const pass = inbox.passStarts().then(() => {
      started = true;
    });
    await Promise.resolve();
    expect(started).toBe(false);
    expect(applied).toEqual(['choose-for-conflict']);
    release();
    await pass;
    expect(applied).toEqual(['choose-for-conflict', 'pause']);
    await Promise.all([settled, later]);
  });
});
