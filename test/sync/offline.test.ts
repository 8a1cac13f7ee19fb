import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSandbox, type SandboxProcess } from '../../src/service/child';
import { startSandbox } from '../../src/service/sandbox';
import { translator } from '../../src/shared/i18n';
import { TempDirs, clientFor, localTree, openPair, settledUntil, statusUntil } from './harness';

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

describe('the service going down and coming back', () => {
  let sandbox: SandboxProcess | null = null;
  afterAll(async () => {
    await sandbox?.stop();
  });

  it('goes offline, backs off, and resumes by itself', async () => {
    const data = dirs.make('wsync-sandbox-');
    sandbox = await spawnSandbox(['--data', data, '--seed', 'demo']);
    const info = sandbox.info;
    const port = new URL(info.base_url).port;
    const owner = info.users.find((u) => u.role === 'Administrator')!;
    const sb = { baseUrl: info.base_url, workspaceId: info.workspace_id };
    const pair = await openPair(sb, clientFor(info.base_url, { accessToken: owner.token }), dirs, {
      pollIntervalMs: 50,
    });
    const abort = new AbortController();
    const first = settledUntil(pair.engine, () => true);
    const running = pair.engine.run(abort.signal);
    await first;
    const mirrored = localTree(pair.dir).size;
    expect(mirrored).toBeGreaterThan(10);

    const offline = statusUntil(pair.engine, 'offline');
    await sandbox.stop();
    await offline;
    expect(pair.engine.status().lastError?.kind).toBe('offline');
    expect(pair.engine.status().message).toMatch(
      /Offline: the service is not available; trying again in \d+ s/,
    );
    // A German reader gets German for the line and for the failure behind it.
    const de = translator('de');
    const status = pair.engine.status();
    expect(de.say(status.words!)).toMatch(
      /^Offline: Der Dienst ist nicht verfügbar; neuer Versuch in \d+ s$/,
    );
    expect(status.lastError?.message).toMatch(/^Cannot reach the service \(ECONNREFUSED\)/);
    expect(de.say(status.lastError!.words!)).toBe(
      'Der Dienst ist nicht erreichbar (ECONNREFUSED): Prüfen Sie die Verbindung.',
    );
    // Nothing was deleted while the service was away.
    expect(localTree(pair.dir).size).toBe(mirrored);

    // Back on the same address, with the same data (tokens included).
    sandbox = await spawnSandbox(['--data', data, '--seed', 'demo', '--port', port]);
    const admin = clientFor(info.base_url, { accessToken: owner.token });
    const back = settledUntil(pair.engine, () => true);
    await back;
    await admin.createFolder(info.workspace_id, null, 'Made after the outage');
    await settledUntil(pair.engine, () => existsSync(path.join(pair.dir, 'Made after the outage')));
    expect(pair.engine.status().state).toBe('idle');
    abort.abort();
    await running;
    await pair.close();
  });
});

describe('pausing', () => {
  it('says paused, and picks up what happened meanwhile when resumed', async () => {
    const sb = await startSandbox({ seed: 'demo' });
    const owner = sb.users.find((u) => u.role === 'Administrator')!;
    const pair = await openPair(sb, clientFor(sb.baseUrl, { accessToken: owner.token }), dirs);
    const abort = new AbortController();
    const first = settledUntil(pair.engine, () => true);
    const running = pair.engine.run(abort.signal);
    await first;
    const paused = statusUntil(pair.engine, 'paused');
    pair.engine.pause();
    await paused;
    expect(pair.engine.status().message).toBe('Paused');
    await clientFor(sb.baseUrl, { accessToken: owner.token }).createFolder(
      sb.workspaceId,
      null,
      'Made while paused',
    );
    const resumed = settledUntil(pair.engine, () =>
      existsSync(path.join(pair.dir, 'Made while paused')),
    );
    pair.engine.resume();
    await resumed;
    expect(pair.engine.status().state).toBe('idle');
    abort.abort();
    await running;
    await pair.close();
    await sb.close();
  });
  it('a pause that comes while a pass runs is said when the pass ends, not "Up to date"', async () => {
    // The window's Pause often lands mid-pass; the loop then waits a whole poll interval (an hour
    // here) before it looks again: the card must not say "Up to date" meanwhile.
    const sb = await startSandbox({ seed: 'demo' });
    const owner = sb.users.find((u) => u.role === 'Administrator')!;
    const pair = await openPair(sb, clientFor(sb.baseUrl, { accessToken: owner.token }), dirs, {
      pollIntervalMs: 3_600_000,
    });
    const abort = new AbortController();
    let pausedMidPass = false;
    const onStatus = (s: { state: string }) => {
      if (pausedMidPass || (s.state !== 'scanning' && s.state !== 'syncing')) return;
      pausedMidPass = true;
      pair.engine.pause();
    };
    pair.engine.on('status', onStatus);
    const first = settledUntil(pair.engine, () => true);
    const running = pair.engine.run(abort.signal);
    await first;
    pair.engine.off('status', onStatus);
    expect(pausedMidPass).toBe(true);
    expect(pair.engine.status().state).toBe('paused');
    abort.abort();
    await running;
    await pair.close();
    await sb.close();
  });
});
