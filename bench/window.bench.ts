import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { FileAccountStore } from '../src/main/accounts/accounts';
import { AppBackend } from '../src/main/backend/backend';
import { startBridge } from '../src/main/backend/bridge';
import { recordEvent } from '../src/service/events';
import { startSandbox } from '../src/service/sandbox';
import type { UserRow } from '../src/service/db';
import type { Benchmark } from './lib';

// The activity feed of the window, in Debian's Chromium against the real bridge and sandbox:
// its first render with 10,000 events on the service, and a scroll from the top to the last
// event (pages fetched as it goes), with the frames dropped meanwhile.
const EVENTS = 10_000;
const repo = path.resolve(import.meta.dirname, '..');

const FIRST_RENDER = `new Promise((resolve) => {
  const button = [...document.querySelectorAll('nav button')].find((b) => b.textContent === 'Activity');
  const started = performance.now();
  const seen = new MutationObserver(() => {
    if (!document.querySelector('.feed-row')) return;
    seen.disconnect();
    requestAnimationFrame(() => resolve(performance.now() - started));
  });
  seen.observe(document.body, { childList: true, subtree: true });
  button.click();
})`;

/** A frame whose gap is k budgets long dropped k - 1 frames; the budget is the median gap. */
const SCROLL_TO = (last: number) => `new Promise((resolve) => {
  const feed = document.querySelector('.feed');
  const stamps = [];
  const started = performance.now();
  const step = (now) => {
    stamps.push(now);
    const shown = [...feed.querySelectorAll('.feed-row')].some((r) => Number(r.dataset.index) === ${last});
    if (shown) {
      const gaps = stamps.slice(1).map((t, i) => t - stamps[i]);
      const median = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)] ?? 16.7;
      const budget = Math.max(median, 1000 / 60);
      const dropped = gaps.reduce((n, g) => n + Math.max(0, Math.round(g / budget) - 1), 0);
      resolve({ ms: performance.now() - started, frames: stamps.length, dropped });
      return;
    }
    feed.scrollTop += feed.clientHeight;
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
})`;

const bench: Benchmark = {
  name: 'window',
  description: `activity feed of ${EVENTS.toLocaleString('en')} events: first render, scroll end to end, dropped frames`,
  async run() {
    const staticDir = path.join(repo, 'out', 'renderer');
    if (!existsSync(path.join(staticDir, 'index.html'))) {
      execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: repo, stdio: 'ignore' });
    }
    const sb = await startSandbox({ seed: 'demo' });
    const state = await mkdtemp(path.join(tmpdir(), 'wsync-bench-window-'));
    const backend = new AppBackend({
      stateDir: state,
      accounts: FileAccountStore.inStateDir(state),
      demo: { server: sb.baseUrl, email: sb.users[0]!.email, password: sb.users[0]!.password },
    });
    const bridge = await startBridge({ backend, staticDir });
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      const ws = sb.sandbox.db
        .prepare('SELECT id, name FROM workspaces WHERE id = ?')
        .get(sb.workspaceId) as { id: number; name: string };
      const actor = sb.sandbox.db
        .prepare('SELECT * FROM users WHERE id = ?')
        .get(sb.users[1]!.id) as UserRow;
      sb.sandbox.db.transaction(() => {
        for (let i = 0; i < EVENTS; i++) {
          recordEvent(sb.sandbox, {
            workspace: ws,
            actor,
            verb: 'update',
            predicate: 'renamed',
            item: { kind: 'file', id: 1, name: `Report ${i}.pdf` },
            complement: `from Draft ${i}.pdf`,
          });
        }
      })();
      const signedIn = await backend.call('accounts.tryDemo', {});
      if (!signedIn.ok) throw new Error(signedIn.error.message);
      const total = (
        sb.sandbox.db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }
      ).n;

      const page = await (
        await browser.newContext({ viewport: { width: 1280, height: 800 } })
      ).newPage();
      await page.goto(bridge.url);
      const activity = page.getByRole('button', { name: 'Activity', exact: true });
      await activity.waitFor();

      // From the click to the first painted row, measured in the page. (The page's code is
      // plain script text: this file is type-checked for Node, without the DOM's types.)
      const firstRenderMs = await page.evaluate<number>(FIRST_RENDER);
      // One screen per frame, as a fast fling does, until the last event is on screen.
      const scroll = await page.evaluate<{ ms: number; frames: number; dropped: number }>(
        SCROLL_TO(total - 1),
      );
      // Again from the top, every page now loaded: what the rendering alone costs.
      await page.evaluate(`document.querySelector('.feed').scrollTop = 0`);
      await page.locator('.feed-row[data-index="0"]').waitFor();
      const again = await page.evaluate<{ ms: number; frames: number; dropped: number }>(
        SCROLL_TO(total - 1),
      );
      const domRows = await page.locator('.feed-row').count();
      return {
        events: total,
        feed_first_render_ms: Math.round(firstRenderMs),
        feed_scroll_ms: Math.round(scroll.ms),
        feed_scroll_frames: scroll.frames,
        feed_dropped_frames: scroll.dropped,
        feed_rescroll_ms: Math.round(again.ms),
        feed_rescroll_dropped_frames: again.dropped,
        feed_dom_rows: domRows,
      };
    } finally {
      await browser.close();
      await bridge.close();
      await backend.close();
      await sb.close();
      await rm(state, { recursive: true, force: true });
    }
  },
};

export default bench;
