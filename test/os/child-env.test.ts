import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileAccountStore } from '../../src/main/accounts/accounts';
import { AppBackend } from '../../src/main/backend/backend';
import { childEnv, dropSecrets, SECRET_ENV } from '../../src/main/os/child-env';
import { copyText } from '../../src/main/os/clipboard';
import { notify } from '../../src/main/os/notify';
import { showInFileManager } from '../../src/main/os/open-path';
import { silentLogger } from '../../src/main/sync/ports';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { tempDir } from '../cli/run-cli';

// Issue 38, attack 9: `cli ui` started with WORKSPACE_SYNC_TOKEN exported handed the token to
// xdg-open and the file manager it started. Every program we start gets our environment without
// our secrets: fake xdg-open, xclip and notify-send on the PATH write the environment they got.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
let bin: string;
const TOKEN = 'ws-token-0123456789abcdef';
// The sandbox's own (the backend signs in with it).
const CLIENT_SECRET = 'sandbox-secret';
const END = '# the end';

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  tmp = await tempDir('child-env');
  bin = path.join(tmp.dir, 'bin');
  mkdirSync(bin);
  // Shell built-ins only (the PATH holds nothing else): `export -p` lists what it was given,
  // and a last line says the list is whole.
  for (const tool of ['xdg-open', 'xclip', 'notify-send']) {
    const file = path.join(bin, tool);
    writeFileSync(file, `#!/bin/sh\n{ export -p; echo '${END}'; } > "\${0%/*}/\${0##*/}.env"\n`);
    chmodSync(file, 0o755);
  }
});
afterAll(async () => {
  await sb?.close();
  await tmp?.remove();
});

/** The environment a fake tool was started with, once it wrote it. */
async function envOf(tool: string): Promise<string> {
  const file = path.join(bin, `${tool}.env`);
  await expect
    .poll(() => existsSync(file) && readFileSync(file, 'utf8').endsWith(`${END}\n`))
    .toBe(true);
  return readFileSync(file, 'utf8');
}

const exported = () => ({
  PATH: bin,
  DISPLAY: ':0',
  HOME: tmp.dir,
  WORKSPACE_SYNC_TOKEN: TOKEN,
  WORKSPACE_SYNC_CLIENT_SECRET: CLIENT_SECRET,
});

describe('the environment of the programs we start', () => {
  it('`cli ui`-style: the backend opens a folder with xdg-open, which gets no secret', async () => {
    // AppBackend as `cli ui` builds it: the process's environment, the token exported.
    const state = path.join(tmp.dir, 'state');
    const backend = new AppBackend({
      stateDir: state,
      accounts: FileAccountStore.inStateDir(state),
      pollIntervalMs: 200,
      env: exported(),
    });
    try {
      const owner = sb.users.find((u) => u.role === 'Administrator')!;
      const a = await backend.call('accounts.signIn', {
        server: sb.baseUrl,
        email: owner.email,
        password: owner.password,
      });
      if (!a.ok) throw new Error(a.error.message);
      const added = await backend.call('pairs.add', {
        accountId: (a.result as { id: string }).id,
        workspaceId: sb.workspaceId,
        dir: path.join(tmp.dir, 'pair'),
      });
      if (!added.ok) throw new Error(added.error.message);
      const opened = await backend.call('pairs.openFolder', {
        pairId: (added.result as { id: string }).id,
      });
      expect(opened).toEqual({ ok: true, result: null });
      const env = await envOf('xdg-open');
      expect(env).toContain(`PATH='${bin}'`);
      expect(env).not.toContain(TOKEN);
      expect(env).not.toContain(CLIENT_SECRET);
      expect(env).not.toContain('WORKSPACE_SYNC_TOKEN');
    } finally {
      await backend.close();
    }
  });

  it('the clipboard tool, notify-send and "show in folder" get none either', async () => {
    await copyText('a link', exported(), 'linux');
    await notify('Copied', 'the link', { env: exported(), log: silentLogger });
    for (const tool of ['xclip', 'notify-send']) {
      const env = await envOf(tool);
      expect(env, tool).toContain('DISPLAY');
      expect(env, tool).not.toContain(TOKEN);
      expect(env, tool).not.toContain(CLIENT_SECRET);
    }
    const shown = path.join(bin, 'xdg-open.env');
    writeFileSync(shown, '');
    await showInFileManager(path.join(tmp.dir, 'a file'), exported(), 'linux');
    expect(await envOf('xdg-open')).not.toContain(TOKEN);
  });

  it('childEnv copies without the secrets; dropSecrets takes them out in place', () => {
    const env = exported();
    const child = childEnv(env);
    for (const name of SECRET_ENV) expect(child[name]).toBeUndefined();
    expect(env.WORKSPACE_SYNC_TOKEN).toBe(TOKEN);
    expect(child.PATH).toBe(bin);
    dropSecrets(env);
    expect(Object.keys(env).sort()).toEqual(['DISPLAY', 'HOME', 'PATH']);
  });
});
