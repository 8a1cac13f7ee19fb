import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { recordEvent } from '../../src/service/events';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import type { UserRow } from '../../src/service/db';
import {
  buildRenderer,
  expectAccessible,
  launchBrowser,
  openWindow,
  repoRoot,
  screenshot,
  shots,
  shown,
  startBridge,
  type Bridge,
  type Watched,
} from './harness';

// Issue 28, items 2, 4 and 5, as a person meets them in Chromium over `cli ui --server`: sign in
// with the bare host of a service whose API lives under /api/v1 (the browser's own URL check
// would refuse it), sync a workspace (its downloads are the person's own events), read the
// activity feed (days as headings, a burst of uploads as one line that opens, the sync's own
// downloads folded away and brought back), an audit trail that wraps, and About: versions,
// the pair's state, Open logs and Copy diagnostics that leaks no email, password or name.

const ANN = { email: 'ann@example.com', password: 'ann-sandbox-pass' };
const BURST = 48;

let sb: RunningSandbox;
let bridge: Bridge;
let browser: Browser;
let win: Watched;
let page: Page;
let home: string;
let opened: string;

const nav = (name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });
const feed = () => page.getByRole('region', { name: 'Activity feed' });

beforeAll(async () => {
  [sb] = await Promise.all([startSandbox({ seed: 'demo', basePath: '/api/v1' }), buildRenderer()]);
  home = await mkdtemp(path.join(tmpdir(), 'ws-window-home-'));
  // "Open logs" under cli ui starts xdg-open: a stand-in that notes what it was asked to open.
  opened = path.join(home, 'opened.txt');
  const bin = path.join(home, 'bin');
  await mkdir(bin);
  await writeFile(
    path.join(bin, 'xdg-open'),
    `#!/bin/sh\nprintf '%s\\n' "$1" >> ${JSON.stringify(opened)}\n`,
  );
  await chmod(path.join(bin, 'xdg-open'), 0o755);
  bridge = await startBridge(sb.baseUrl, {
    HOME: home,
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
  });
  browser = await launchBrowser();
  win = await openWindow(browser, bridge.url);
  page = win.page;
  page.setDefaultTimeout(20_000);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await bridge?.close();
  await sb?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

describe(
  'sign-in, activity and About, in Chromium over the web bridge',
  { timeout: 120_000 },
  () => {
    it('offers browser sign-in first and takes a bare host', async () => {
      const server = page.getByLabel('Server address');
      await shown(server);
      // A text field: the browser's own URL check would refuse "127.0.0.1:PORT".
      expect(await server.getAttribute('type')).toBe('text');
      const primary = page.locator('main button.primary');
      expect(await primary.allTextContents()).toEqual(['Sign in with your browser']);
      await shots(page, 'sign-in', { ready: primary });

      const bare = new URL(sb.baseUrl).host; // 127.0.0.1:PORT, the API being under /api/v1
      expect(sb.baseUrl).toBe(`http://${bare}/api/v1`);
      await server.fill(bare);
      await page.getByLabel('Email').fill(ANN.email);
      await page.getByLabel('Password', { exact: true }).fill(ANN.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await shown(page.getByText('Signed in as Ann Lee (ann@example.com)'));
    });

    it('syncs the workspace (its downloads are Ann’s own events)', async () => {
      const form = page.getByRole('form', { name: 'Choose what to sync' });
      await form.getByRole('button', { name: 'Start syncing' }).click();
      const card = page.getByRole('article', { name: 'Q3 Planning' });
      await shown(card.getByRole('status').filter({ hasText: 'Up to date' }), 90_000);
    });

    it('reads as days and bursts, with the sync’s own downloads folded away until asked', async () => {
      // Kenji uploads 48 scans in one go, as the service records them.
      const db = sb.sandbox.db;
      const ws = db.prepare('SELECT id, name FROM workspaces WHERE id = ?').get(sb.workspaceId) as {
        id: number;
        name: string;
      };
      const kenji = db
        .prepare('SELECT * FROM users WHERE email = ?')
        .get('kenji@example.com') as UserRow;
      db.transaction(() => {
        for (let i = 1; i <= BURST; i++)
          recordEvent(sb.sandbox, {
            workspace: ws,
            actor: kenji,
            verb: 'upload',
            predicate: 'uploaded',
            item: { kind: 'file', id: 100_000 + i, name: `Scan ${String(i).padStart(2, '0')}.pdf` },
          });
      })();

      // Then Chloé puts three files into Reports: her burst names the folder that holds them.
      const reports = db
        .prepare("SELECT id FROM items WHERE kind = 'folder' AND filename = 'Reports'")
        .get() as { id: number };
      const chloe = sb.users.find((u) => u.email === 'chloe@example.com')!;
      for (const name of ['Minutes 1.txt', 'Minutes 2.txt', 'Minutes 3.txt']) {
        const body = new FormData();
        body.append('file', new Blob([`notes of ${name}`]), name);
        const res = await fetch(`${sb.baseUrl}/folders/${reports.id}/files`, {
          method: 'POST',
          headers: { authorization: `Bearer ${chloe.token}` },
          body,
        });
        expect(res.status).toBe(201);
      }

      await nav('Activity').click();
      await shown(feed().getByRole('heading', { name: 'Today' }));
      const burst = feed().getByRole('button', {
        name: `Kenji Sato uploaded ${BURST} files in Q3 Planning`,
      });
      await shown(burst);
      expect(await burst.getAttribute('aria-expanded')).toBe('false');
      // Kenji's files are gone from the service (their ids were never real): his line keeps
      // the workspace; Chloé's files are all in Reports.
      await shown(feed().getByRole('button', { name: 'Chloé Martin uploaded 3 files in Reports' }));
      // Earlier days of the demo's history have their own headings, after Today.
      expect(await feed().getByRole('heading', { level: 2 }).count()).toBeGreaterThan(1);

      // The sync's downloads: counted, not listed.
      const note = page.getByText(/downloads and views of your own are folded away/);
      await shown(note);
      expect(await feed().getByText('downloaded', { exact: false }).count()).toBe(0);
      await shots(page, 'activity-bursts', { ready: burst });

      await burst.click();
      expect(await burst.getAttribute('aria-expanded')).toBe('true');
      await shown(feed().getByRole('button', { name: 'Open file Scan 48.pdf' }));
      await shown(feed().getByRole('button', { name: 'Open file Scan 47.pdf' }));
      await screenshot(page, 'activity-burst-open');
      await expectAccessible(page, 'activity, a burst open');
      await burst.click();
      expect(await feed().getByRole('button', { name: 'Open file Scan 48.pdf' }).count()).toBe(0);

      // Brought back: the sync's downloads, as a burst of Ann's.
      await page.getByRole('button', { name: 'Show them' }).click();
      expect(await page.getByLabel('Show my own downloads and views').isChecked()).toBe(true);
      await shown(
        feed().getByRole('button', { name: /^Ann Lee downloaded \d+ files in Q3 Planning$/ }),
      );
      await expect.poll(() => note.count()).toBe(0);
      await page.getByLabel('Show my own downloads and views').uncheck();
      await shown(note);
    });

    it('wraps an audit-trail line instead of cutting it', async () => {
      await nav('Browse').click();
      const contents = page.getByRole('table', { name: 'Folder contents' });
      await contents.getByRole('button', { name: 'Open folder Reports' }).click();
      await contents.getByRole('button', { name: 'Q3 summary.md' }).click();
      const trail = page.getByRole('list', { name: 'Audit trail' });
      await shown(trail);
      const lines = trail.locator('.event-line');
      await shown(lines.first());
      // Every line shows all of its text: nothing overflows its box (an ellipsis would).
      const cut = await lines.evaluateAll((els) =>
        els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent),
      );
      expect(cut).toEqual([]);
      expect(
        await lines
          .first()
          .evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).whiteSpace),
      ).toBe('normal');
      // The sync's download of the file is folded there too, and can be brought back.
      const panel = page.getByRole('complementary');
      await shown(panel.getByText('1 download or view of your own is folded away.'));
      expect(await trail.getByText('downloaded', { exact: false }).count()).toBe(0);
      await panel.getByRole('button', { name: 'Show them' }).click();
      await shown(trail.getByText('downloaded', { exact: false }).first());
      await page.setViewportSize({ width: 800, height: 600 });
      await screenshot(page, 'audit-trail-800x600');
      await page.setViewportSize({ width: 1280, height: 860 });
    });

    it('tells the versions and the pair’s state, opens the logs, copies diagnostics without secrets', async () => {
      await nav('About').click();
      await shown(page.getByRole('heading', { name: 'About Workspace Sync' }));
      const pkg = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as {
        version: string;
      };
      const facts = page.locator('dl.facts');
      await shown(facts.getByText(pkg.version, { exact: true }));
      await shown(facts.getByText('Not in use (this window runs in a browser)'));
      await shown(page.getByRole('listitem').filter({ hasText: 'Q3 Planning: Up to date' }));
      await shots(page, 'about', { ready: page.getByRole('button', { name: 'Copy diagnostics' }) });

      await page.getByRole('button', { name: 'Open logs' }).click();
      await expect
        .poll(() => readFile(opened, 'utf8').catch(() => ''))
        .toBe(`${path.join(bridge.stateDir, 'logs')}\n`);

      const copy = async () => {
        await page.getByRole('button', { name: 'Copy diagnostics' }).click();
        await shown(page.getByText('Diagnostics copied to the clipboard.'));
        return page.evaluate<string>('navigator.clipboard.readText()');
      };
      const plain = await copy();
      expect(plain).toContain(`Workspace Sync ${pkg.version}`);
      expect(plain).toContain(`Folder 1: workspace ${sb.workspaceId}`);
      expect(plain).toContain('State: idle');
      const secrets = [
        ANN.email,
        ANN.password,
        ...sb.users.flatMap((u) => [u.email, u.token, u.password]),
      ];
      // What the person did not tick: the workspace, its folder, the server, any file's name.
      const names = ['Q3 Planning', home, bare(), 'Reports', 'Q3 summary.md', 'README.txt'];
      for (const s of [...secrets, ...names]) expect(plain).not.toContain(s);

      await page.getByLabel('Include file, folder, workspace and server names').check();
      await expect
        .poll(() => page.getByText('Diagnostics copied to the clipboard.').count())
        .toBe(0);
      const named = await copy();
      expect(named).toContain('Q3 Planning');
      expect(named).toContain(path.join(home, 'Workspace Sync', 'Q3 Planning'));
      for (const s of secrets) expect(named).not.toContain(s);
      await page.getByText('What was copied').click();
      await shown(page.locator('.diagnostics-text pre'));
      await expectAccessible(page, 'about, diagnostics shown');
      expect(win.dialogs).toEqual([]);
    });
  },
);

const bare = () => new URL(sb.baseUrl).host;
