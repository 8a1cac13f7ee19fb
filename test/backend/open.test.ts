import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileAccountStore } from '../../src/main/accounts/accounts';
import { AppBackend } from '../../src/main/backend/backend';
import { OpenFailed, openInFileManager, showInFileManager } from '../../src/main/os/open-path';
import { silentLogger } from '../../src/main/sync/ports';
import { translator } from '../../src/shared/i18n';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { callOk } from './backend-calls';
import { tempDir } from '../cli/run-cli';

// Issue 39, item 4: Open folder and Open logs said nothing when the file manager failed, and
// Browse said "Opened …" though nothing opened: the opener was taken as done once it started.
// A fake xdg-open on the PATH ends with 4 (xdg-open's "the action failed") or 0 (opened), or
// there is none; what the backend answers must say which, with the place to open by hand.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
const bins: Record<'fails' | 'opens' | 'none', string> = { fails: '', opens: '', none: '' };

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  tmp = await tempDir('backend-open');
  for (const kind of ['fails', 'opens', 'none'] as const) {
    bins[kind] = path.join(tmp.dir, `bin-${kind}`);
    mkdirSync(bins[kind]);
  }
  // Shell built-ins only (the PATH holds nothing else). The one that opens writes what it was
  // asked to open, so the test sees it was asked.
  writeFileSync(path.join(bins.fails, 'xdg-open'), '#!/bin/sh\nexit 4\n');
  writeFileSync(
    path.join(bins.opens, 'xdg-open'),
    '#!/bin/sh\necho "$1" > "${0%/*}/opened.txt"\nexit 0\n',
  );
  for (const kind of ['fails', 'opens'] as const)
    chmodSync(path.join(bins[kind], 'xdg-open'), 0o755);
});
afterAll(async () => {
  await sb?.close();
  await tmp?.remove();
});

function backendWith(bin: string, name: string): AppBackend {
  const state = path.join(tmp.dir, name);
  return new AppBackend({
    stateDir: state,
    accounts: FileAccountStore.inStateDir(state),
    log: silentLogger,
    env: { PATH: bin, HOME: tmp.dir, DISPLAY: ':0' },
    logsDir: path.join(state, 'logs'),
  });
}

describe('the opener says whether it opened', () => {
  it('rejects when xdg-open ends non-zero, with the program and its code', async () => {
    const env = { PATH: bins.fails };
    const err = await openInFileManager(tmp.dir, env, 'linux').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenFailed);
    expect(err).toMatchObject({ program: 'xdg-open', reason: { missing: false, code: 4 } });
    await expect(showInFileManager(path.join(tmp.dir, 'f'), env, 'linux')).rejects.toThrow(
      /xdg-open could not open it \(it ended with 4\)/,
    );
  });

  it('rejects when there is no xdg-open, and resolves once one opened', async () => {
    await expect(openInFileManager(tmp.dir, { PATH: bins.none }, 'linux')).rejects.toMatchObject({
      reason: { missing: true },
    });
    await openInFileManager(tmp.dir, { PATH: bins.opens }, 'linux');
    expect(readFileSync(path.join(bins.opens, 'opened.txt'), 'utf8')).toBe(`${tmp.dir}\n`);
  });
});

describe('an opener still running after its launch window', () => {
  it('has started what opens the path: taken as opened, and left running', async () => {
    const bin = path.join(tmp.dir, 'bin-stays');
    mkdirSync(bin);
    const pidFile = path.join(bin, 'pid');
    // Like xdg-open handing over to a program it keeps in the foreground.
    writeFileSync(
      path.join(bin, 'xdg-open'),
      `#!/bin/sh\necho $$ > ${JSON.stringify(pidFile)}\nexec /bin/sleep 60\n`,
    );
    chmodSync(path.join(bin, 'xdg-open'), 0o755);
    try {
      await openInFileManager(tmp.dir, { PATH: bin }, 'linux', 100);
      await expect.poll(() => existsSync(pidFile)).toBe(true);
      const pid = Number(readFileSync(pidFile, 'utf8'));
      expect(() => process.kill(pid, 0)).not.toThrow();
    } finally {
      if (existsSync(pidFile)) process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGTERM');
    }
  });
});

describe('Open logs and Open folder in words', () => {
  it('Open logs: the failure, its code and where the logs are, in English and German', async () => {
    const backend = backendWith(bins.fails, 'logs-fails');
    try {
      const reply = await backend.call('app.openLogs', {});
      expect(reply.ok).toBe(false);
      if (reply.ok) return;
      const dir = path.join(tmp.dir, 'logs-fails', 'logs');
      expect(reply.error.kind).toBe('unsupported');
      expect(reply.error.message).toBe(
        `xdg-open could not open the logs folder (it ended with code 4): the logs are in ${dir}; open it in your file manager.`,
      );
      expect(translator('de').say(reply.error.words!)).toBe(
        `xdg-open konnte den Protokollordner nicht öffnen (beendet mit Code 4): Die Protokolle liegen in ${dir}; öffnen Sie den Ordner in Ihrem Dateimanager.`,
      );
    } finally {
      await backend.close();
    }
  });

  it('Open logs: no opener at all is said too; one that opens answers done', async () => {
    const none = backendWith(bins.none, 'logs-none');
    const opens = backendWith(bins.opens, 'logs-opens');
    try {
      const reply = await none.call('app.openLogs', {});
      expect(reply.ok ? null : reply.error.words?.key).toBe('backend.noFileManagerLogs');
      expect(await opens.call('app.openLogs', {})).toEqual({ ok: true, result: null });
      expect(existsSync(path.join(tmp.dir, 'logs-opens', 'logs'))).toBe(true);
    } finally {
      await none.close();
      await opens.close();
    }
  });

  it("Open folder on a pair's card: xdg-open's failure is the answer, not done", async () => {
    const backend = backendWith(bins.fails, 'pair-fails');
    try {
      const owner = sb.users.find((u) => u.role === 'Administrator')!;
      const a = await callOk(backend, 'accounts.signIn', {
        server: sb.baseUrl,
        email: owner.email,
        password: owner.password,
      });
      const dir = path.join(tmp.dir, 'pair');
      const added = await callOk(backend, 'pairs.add', {
        accountId: a.id,
        workspaceId: sb.workspaceId,
        dir,
      });
      const reply = await backend.call('pairs.openFolder', { pairId: added.id });
      expect(reply).toMatchObject({
        ok: false,
        error: {
          kind: 'unsupported',
          words: { key: 'backend.openFailed', params: { program: 'xdg-open', code: '4' } },
        },
      });
      expect(reply.ok ? '' : reply.error.message).toContain(`could not open ${dir}`);
    } finally {
      await backend.close();
    }
  });
});
