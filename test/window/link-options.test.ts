import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildRenderer,
  launchBrowser,
  openWindow,
  screenshotOnFailure,
  shots,
  shown,
  startSandbox,
  type Sandbox,
} from './harness';
import { linkOptionsOf } from '../../src/shared/link-options';
import { requirePrivateKeyring, runCli, startCli, tempDir, type CliChild } from '../cli/run-cli';

// "Copy link with options…" from a file manager, headless (issue 42): the entry runs
// `workspace-sync ui --link-options --state DIR -- PATH` (test/os/integrate.test.ts), which
// finds the synced item in the journals, serves the window for its service and has the
// desktop's browser (here a recording xdg-open) open the page at the item's link options. The
// page, in Chromium: the item's link panel alone, its changes made on the service.

const ANN = { email: 'ann@example.com', password: 'ann-sandbox-pass' };

let sandbox: Sandbox;
let tmp: { dir: string; remove(): Promise<void> };
let ui: CliChild | null = null;
let browser: Browser;
let page: Page;
let staticDir: string;

beforeAll(async () => {
  requirePrivateKeyring();
  [sandbox, staticDir] = await Promise.all([startSandbox(), buildRenderer()]);
  tmp = await tempDir('link-options');
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  if (ui) {
    const exited = ui.exited;
    ui.child.kill('SIGTERM');
    await exited;
  }
  await browser?.close();
  await sandbox?.close();
  await tmp?.remove();
});

describe.sequential('link options from a file manager, headless', { timeout: 150_000 }, () => {
  screenshotOnFailure(() => page, 'link-options');

  it('opens the page at the synced item’s link options, where a change is made on the service', async () => {
    const state = path.join(tmp.dir, 'state');
    const dir = path.join(tmp.dir, 'Q3');
    const login = await runCli(
      [
        'login',
        '--server',
        sandbox.baseUrl,
        '--email',
        ANN.email,
        '--password-stdin',
        '--state',
        state,
      ],
      { stdin: `${ANN.password}\n` },
    );
    expect(login.code, login.stderr).toBe(0);
    const sync = await runCli([
      'sync',
      '--once',
      '--server',
      sandbox.baseUrl,
      '--workspace',
      String(sandbox.workspaceId),
      '--dir',
      dir,
      '--state',
      state,
    ]);
    expect(sync.code, sync.stderr).toBe(0);

    // The desktop's browser: a recording xdg-open.
    const bin = path.join(tmp.dir, 'bin');
    mkdirSync(bin);
    const opened = path.join(tmp.dir, 'opened.txt');
    writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
    chmodSync(path.join(bin, 'xdg-open'), 0o755);
    const item = path.join(dir, 'Reports');
    ui = startCli(
      ['ui', '--link-options', '--state', state, '--port', '0', '--static', staticDir, '--', item],
      { env: { PATH: `${bin}:${process.env.PATH ?? ''}` } },
    );
    const { url } = JSON.parse(await ui.firstLine) as { url: string };
    expect(linkOptionsOf(new URL(url).search)).toMatchObject({ kind: 'folder', name: 'Reports' });
    await expect.poll(() => readFileSync(opened, 'utf8')).toBe(url);

    ({ page } = await openWindow(browser, url));
    page.setDefaultTimeout(20_000);
    await shown(page.getByRole('heading', { name: 'Link options: Reports', level: 1 }));
    const enabled = page.getByLabel('Anyone with the link can view');
    await shown(enabled);
    await shown(page.getByRole('heading', { name: 'Share with people' }));
    // Nothing else of the window: no sidebar.
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    // The demo's Reports link may be on already: off, then on again, each said once answered.
    const saved = (text: string) => shown(page.getByRole('status').filter({ hasText: text }));
    if (await enabled.isChecked()) {
      await enabled.click();
      await saved('Saved: the link is off.');
    }
    await enabled.click();
    await saved('Saved: anyone with the link');
    await page.getByRole('button', { name: 'Copy link' }).click();
    const copied = page.getByRole('status').filter({ hasText: 'Copied:' });
    await shown(copied);
    const link = ((await copied.textContent()) ?? '').replace(/^Copied: /, '');
    expect((await fetch(link)).status).toBe(200);
    await shots(page, 'link-options', { ready: enabled });
  });

  it('ends once its page is closed: a menu click leaves no server behind', async () => {
    await page.context().close();
    const done = await ui!.exited;
    expect(done.code, done.stderr).toBe(0);
    ui = null;
  });

  it('refuses a path that is not a synced item, in one line', async () => {
    const run = await runCli([
      'ui',
      '--link-options',
      '--state',
      path.join(tmp.dir, 'state'),
      '--',
      path.join(tmp.dir, 'elsewhere'),
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('does not exist');
  });
});
