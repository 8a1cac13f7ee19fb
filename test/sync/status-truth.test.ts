import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SyncFatalError } from '../../src/main/sync/errors';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { translator } from '../../src/shared/i18n';
import type { SyncStatus } from '../../src/shared/sync-status';
import { TempDirs, clientFor, localTree, openPair, settledUntil, statusUntil } from './harness';

// Issue 37: the status is true. A workspace deleted on the service is a state of its own (never
// "up to date", nothing trashed); a failed pass says so with its reason and keeps the time of
// the last pass that succeeded; Retry now starts a pass at once.

const dirs = new TempDirs();
let sb: RunningSandbox | null = null;
afterEach(async () => {
  await sb?.close();
  sb = null;
});
afterAll(() => dirs.cleanup());

/** Every file in the pair's trash folder (state dir), recursively. */
function trashed(state: string): string[] {
  const trash = path.join(state, 'trash');
  if (!existsSync(trash)) return [];
  return readdirSync(trash, { recursive: true }).map(String);
}

describe('a workspace deleted on the service', () => {
  it('is the state gone, never up to date; a new local file waits, nothing is trashed', async () => {
    sb = await startSandbox({ seed: 'demo' });
    const owner = sb.users.find((u) => u.role === 'Administrator')!;
    const client = clientFor(sb.baseUrl, { accessToken: owner.token });
    const pair = await openPair(sb, client, dirs, { pollIntervalMs: 20 });
    const abort = new AbortController();
    const first = settledUntil(pair.engine, () => true);
    const running = pair.engine.run(abort.signal);
    await first;
    const before = localTree(pair.dir);
    expect(before.size).toBeGreaterThan(10);

    const seen: SyncStatus[] = [];
    pair.engine.on('status', (s) => seen.push(s));
    const gone = statusUntil(pair.engine, 'gone');
    await client.deleteWorkspace(sb.workspaceId);
    writeFileSync(path.join(pair.dir, 'written after.txt'), 'still mine');
    pair.engine.markDirty(['']);
    await gone;

    const status = pair.engine.status();
    expect(status.state).toBe('gone');
    expect(status.lastError?.kind).toBe('workspace-gone');
    expect(status.message).toMatch(/was deleted or is no longer shared with you/);
    expect(translator('de').say(status.words!)).toMatch(/wurde gelöscht oder wird nicht mehr/);
    // Never "up to date" once the workspace was gone.
    expect(seen.filter((s) => s.state === 'idle')).toEqual([]);
    // Every file is still here, the new one too, and nothing went to the trash.
    const after = localTree(pair.dir);
    for (const [p, hash] of before) expect(after.get(p)).toBe(hash);
    expect(after.has('written after.txt')).toBe(true);
    expect(trashed(pair.state)).toEqual([]);

    abort.abort();
    await running;
    await pair.close();
  });

  it('is seen within a minute with nothing to send (the feed says nothing of it)', async () => {
    sb = await startSandbox({ seed: 'demo' });
    const owner = sb.users.find((u) => u.role === 'Administrator')!;
    const client = clientFor(sb.baseUrl, { accessToken: owner.token });
    let clock = Date.now();
    const pair = await openPair(sb, client, dirs, {
      pollIntervalMs: 20,
      tuning: { now: () => clock },
    });
    const abort = new AbortController();
    const first = settledUntil(pair.engine, () => true);
    const running = pair.engine.run(abort.signal);
    await first;
    const before = localTree(pair.dir);

    const gone = statusUntil(pair.engine, 'gone');
    await client.deleteWorkspace(sb.workspaceId);
    // A minute on the engine's clock (not a wait): the next quiet poll asks for the workspace.
    clock += 61_000;
    await gone;
    expect(pair.engine.status().lastError?.kind).toBe('workspace-gone');
    expect(localTree(pair.dir)).toEqual(before);
    expect(trashed(pair.state)).toEqual([]);
    abort.abort();
    await running;
    await pair.close();
  });

  it('ends a single pass with the gone error (the CLI exits non-zero with it)', async () => {
    sb = await startSandbox({ seed: 'demo' });
    const owner = sb.users.find((u) => u.role === 'Administrator')!;
    const client = clientFor(sb.baseUrl, { accessToken: owner.token });
    const pair = await openPair(sb, client, dirs);
    await pair.engine.syncOnce();
    const before = localTree(pair.dir).size;
    await client.deleteWorkspace(sb.workspaceId);
    writeFileSync(path.join(pair.dir, 'new.txt'), 'hello');
    const err: unknown = await pair.engine.syncOnce().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SyncFatalError);
    expect((err as SyncFatalError).kind).toBe('workspace-gone');
    expect(pair.engine.status().state).toBe('gone');
    expect(localTree(pair.dir).size).toBe(before + 1);
    expect(trashed(pair.state)).toEqual([]);
    await pair.close();
  });
});

describe('a failed pass', () => {
  it('says why, keeps the last success, and Retry now starts a pass at once', async () => {
    sb = await startSandbox({ seed: 'demo' });
    const owner = sb.users.find((u) => u.role === 'Administrator')!;
    const client = clientFor(sb.baseUrl, { accessToken: owner.token });
    // The wait after a failure is an hour: only Retry now can start the next pass in this test.
    const pair = await openPair(sb, client, dirs, {
      pollIntervalMs: 20,
      tuning: { retryBaseMs: 3_600_000 },
    });
    const abort = new AbortController();
    const first = settledUntil(pair.engine, () => true);
    const running = pair.engine.run(abort.signal);
    await first;
    const lastSuccess = pair.engine.status().lastSyncAt;
    expect(lastSuccess).not.toBeNull();

    // Every request is refused from now on: the next pass fails.
    sb.sandbox.faults.set({ ...sb.sandbox.faults.current, fail: 1 });
    const failed = statusUntil(pair.engine, 'offline');
    pair.engine.requestFullWalk();
    await failed;
    const status = pair.engine.status();
    expect(status.lastError?.message).toMatch(/503|reach/i);
    expect(status.lastError?.words).toBeDefined();
    // The time of the last pass that succeeded, not of the attempt.
    expect(status.lastSyncAt).toBe(lastSuccess);
    expect(status.message).toMatch(/trying again in 3600 s|trying again in \d{4} s/);

    // The service is back; Retry now runs a pass without waiting out the hour.
    sb.sandbox.faults.set({ ...sb.sandbox.faults.current, fail: 0 });
    const back = settledUntil(pair.engine, () => true);
    pair.engine.retryNow();
    await back;
    expect(pair.engine.status().state).toBe('idle');
    expect(pair.engine.status().lastSyncAt).toBeGreaterThan(lastSuccess!);

    abort.abort();
    await running;
    await pair.close();
  });
});
