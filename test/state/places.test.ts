import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryAccountStore } from '../../src/main/accounts/accounts';
import { AppBackend } from '../../src/main/backend/backend';
import { moveToPlaces } from '../../src/main/state/move-places';
import { placesOf } from '../../src/main/state/state-dir';
import { runCli, tempDir } from '../cli/run-cli';

// The OS's places: settings and pairs in the config directory, journals and trash in the state
// directory, logs where the OS keeps them; what earlier versions kept in the state directory
// moves on the first start. Here with a home of our own (XDG variables set, no --state).

let tmp: { dir: string; remove(): Promise<void> };
beforeAll(async () => {
  tmp = await tempDir('places');
});
afterAll(async () => {
  await tmp?.remove();
});

/** A home with the layout of earlier versions: everything in the state directory. */
async function oldHome(name: string) {
  const home = path.join(tmp.dir, name);
  const env = {
    HOME: home,
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    XDG_CONFIG_HOME: path.join(home, '.config'),
  };
  const state = path.join(env.XDG_STATE_HOME, 'workspace-sync');
  const config = path.join(env.XDG_CONFIG_HOME, 'workspace-sync');
  await mkdir(path.join(state, 'logs'), { recursive: true });
  await mkdir(path.join(state, 'journals'), { recursive: true });
  const settings = JSON.stringify({ version: 1, pollIntervalSeconds: 120 });
  await writeFile(path.join(state, 'settings.json'), settings);
  await writeFile(path.join(state, 'pairs.json'), JSON.stringify({ version: 1, pairs: [] }));
  await writeFile(path.join(state, 'logs', 'workspace-sync.log'), 'an old line\n');
  await writeFile(path.join(state, 'journals', 'abc.db'), 'journal');
  return { home, env, state, config, settings };
}

describe("the OS's places", () => {
  it('moves the settings and pairs of an earlier version into the config directory on first start', async () => {
    const h = await oldHome('first-start');
    const run = await runCli(['status'], { env: h.env });
    expect(run.code, run.stderr).toBe(3); // no sync runs; the move happened anyway
    expect(await readFile(path.join(h.config, 'settings.json'), 'utf8')).toBe(h.settings);
    expect(existsSync(path.join(h.config, 'pairs.json'))).toBe(true);
    expect(existsSync(path.join(h.state, 'settings.json'))).toBe(false);
    expect(existsSync(path.join(h.state, 'pairs.json'))).toBe(false);
    // Journals stay in the state directory; on Linux the logs too (XDG keeps logs in state).
    expect(existsSync(path.join(h.state, 'journals', 'abc.db'))).toBe(true);
    const log = await readFile(path.join(h.state, 'logs', 'workspace-sync.log'), 'utf8');
    expect(log).toContain('an old line');
    expect(log).toContain('moved to its place');
    // The window's backend reads the settings where they now are.
    const places = placesOf(undefined, h.env, 'linux', h.home);
    const backend = new AppBackend({
      stateDir: places.state,
      configDir: places.config,
      accounts: new MemoryAccountStore(),
      env: {},
    });
    try {
      const got = await backend.call('settings.get', {});
      expect(got).toMatchObject({ ok: true, result: { pollIntervalSeconds: 120 } });
    } finally {
      await backend.close();
    }
  });

  it('never overwrites a file already at its new place, and moves logs where the OS keeps them', async () => {
    const h = await oldHome('both');
    await mkdir(h.config, { recursive: true });
    await writeFile(path.join(h.config, 'settings.json'), '{"version":1,"newer":true}');
    // macOS keeps logs apart: the old ones follow.
    const logs = path.join(h.home, 'Library', 'Logs', 'Workspace Sync');
    const result = moveToPlaces({ state: h.state, config: h.config, logs });
    expect(await readFile(path.join(h.config, 'settings.json'), 'utf8')).toContain('newer');
    expect(existsSync(path.join(h.state, 'settings.json'))).toBe(true); // left, not lost
    expect(await readFile(path.join(logs, 'workspace-sync.log'), 'utf8')).toBe('an old line\n');
    expect(existsSync(path.join(h.state, 'logs'))).toBe(false);
    expect(result.moved.map((m) => path.basename(m.to)).sort()).toEqual([
      'pairs.json',
      'workspace-sync.log',
    ]);
    expect(result.failed).toEqual([]);
    // A second start finds nothing more to move.
    expect(moveToPlaces({ state: h.state, config: h.config, logs }).moved).toEqual([]);
  });

  it('keeps everything in a state directory that is given', async () => {
    const h = await oldHome('given');
    const run = await runCli(['status', '--state', h.state], { env: h.env });
    expect(run.code).toBe(3);
    expect(existsSync(path.join(h.state, 'settings.json'))).toBe(true);
    expect(existsSync(h.config)).toBe(false);
  });
});
