import { execFileSync } from 'node:child_process';
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
import { makeBigFolder } from '../test/window/big-folder';
import type { Benchmark } from './lib';
import { scrollInterleaved } from './window-scroll';

// The window in Debian's Chromium against the real bridge and sandbox. The activity feed: its
// first render with 10,000 events on the service, and a scroll from the top to the last event
// (pages fetched as it goes), with the frames dropped meanwhile. Browse: a folder of 20,000
// entries opened (to its first rows painted, beside a small folder opened the same way), then
// scrolled (a steady wheel, and one screen a frame from its first row to its last) beside an idle
// floor in the same run, with the renderer's CPU time a frame (bench/window-scroll.ts).
const EVENTS = 10_000;
const ENTRIES = 20_000;
/** Rounds of opening the big and the small folder, each from a fresh page (nothing cached). */
const OPEN_ROUNDS = 5;
/** A steady wheel: three rows a frame (a wheel's notch is about that), for ten seconds at 60 Hz. */
const WHEEL_PX = 120;
const WHEEL_FRAMES = 600;
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
const SCROLL_TO_END = `new Promise((resolve) => {
  const feed = document.querySelector('.feed');
  const stamps = [];
  const started = performance.now();
  const step = (now) => {
    stamps.push(now);
    // The last row on screen once every page is read (day headings are rows too).
    const shown = !!feed.querySelector('.end') && [...feed.querySelectorAll('.feed-row')].some(
      (r) => Number(r.dataset.index) === Number(r.getAttribute('aria-setsize')) - 1);
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

/**
 * From the click on the folder to its first row painted: the row's name button in the page, then
 * the frame that shows it (a task after the animation frame runs once that frame is painted).
 */
const OPEN_FOLDER = (folder: string, firstRow: string) => `new Promise((resolve) => {
  const button = [...document.querySelectorAll('.entries button')].find(
    (b) => b.getAttribute('aria-label') === 'Open folder ' + ${JSON.stringify(folder)});
  const started = performance.now();
  const painted = () => requestAnimationFrame(() => {
    const after = new MessageChannel();
    after.port1.onmessage = () => resolve(performance.now() - started);
    after.port2.postMessage(null);
  });
  const seen = new MutationObserver(() => {
    const row = [...document.querySelectorAll('.entries [data-index] .name')].some(
      (b) => b.textContent === ${JSON.stringify(firstRow)});
    if (!row) return;
    seen.disconnect();
    painted();
  });
  seen.observe(document.body, { childList: true, subtree: true, characterData: true });
  button.click();
})`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const bench: Benchmark = {
  name: 'window',
  description: `activity feed of ${EVENTS.toLocaleString('en')} events and Browse of a folder of ${ENTRIES.toLocaleString('en')} entries: first rows, scroll end to end, long frames`,
  async run() {
    const state = await mkdtemp(path.join(tmpdir(), 'wsync-bench-window-'));
    // Built afresh each run: an out/renderer left from an earlier build would measure old code.
    const staticDir = path.join(state, 'renderer');
    execFileSync(
      process.execPath,
      ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'error', '--outDir', staticDir],
      { cwd: repo, stdio: 'ignore' },
    );
    const sb = await startSandbox({ seed: 'demo' });
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
      // Two people in turn: each event is a line of its own (one person's renames in a row
      // would be one burst, and the feed a few rows).
      const actors = [sb.users[1]!, sb.users[2]!].map(
        (u) => sb.sandbox.db.prepare('SELECT * FROM users WHERE id = ?').get(u.id) as UserRow,
      );
      sb.sandbox.db.transaction(() => {
        for (let i = 0; i < EVENTS; i++) {
          recordEvent(sb.sandbox, {
            workspace: ws,
            actor: actors[i % 2]!,
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
        SCROLL_TO_END,
      );
      // Again from the top, every page now loaded: what the rendering alone costs.
      await page.evaluate(`document.querySelector('.feed').scrollTop = 0`);
      await page.locator('.feed-row[data-index="0"]').waitFor();
      const again = await page.evaluate<{ ms: number; frames: number; dropped: number }>(
        SCROLL_TO_END,
      );
      const domRows = await page.locator('.feed-row').count();

      // Browse: the big folder and a small one (Reports, a few entries) opened in turns, each
      // from a fresh page so that nothing is cached, then the big one scrolled end to end.
      const big = await makeBigFolder(sb, 'Big folder', { entries: ENTRIES, files: 1_000 });
      const root = page.locator('.breadcrumbs').getByRole('button', { name: 'Q3 Planning' });
      const openFromRoot = async (folder: string, firstRow: string) => {
        await page.reload();
        await page.getByRole('button', { name: 'Browse', exact: true }).click();
        if ((await root.count()) > 0) await root.click();
        await page.getByRole('button', { name: `Open folder ${folder}`, exact: true }).waitFor();
        return page.evaluate<number>(OPEN_FOLDER(folder, firstRow));
      };
      const bigMs: number[] = [];
      const smallMs: number[] = [];
      for (let round = 0; round < OPEN_ROUNDS; round++) {
        bigMs.push(await openFromRoot(big.name, big.first));
        smallMs.push(await openFromRoot('Reports', '2026'));
      }
      // A steady wheel from the top of a fresh page, then (fresh again) a fling to the end, then
      // the fling again with every block read: what the rendering alone costs.
      await openFromRoot(big.name, big.first);
      const wheel = await scrollInterleaved(page, String(WHEEL_PX), {
        frames: WHEEL_FRAMES,
        until: -1,
      });
      await openFromRoot(big.name, big.first);
      const fling = await scrollInterleaved(page, 'screen', { frames: 5_000, until: ENTRIES - 1 });
      await page.evaluate(`document.querySelector('.entries-scroll').scrollTop = 0`);
      await page.locator('.entries [data-index="0"]:not(.placeholder)').waitFor();
      const browseAgain = await scrollInterleaved(page, 'screen', {
        frames: 5_000,
        until: ENTRIES - 1,
      });
      const cpu = (ms: number) => Number(ms.toFixed(2));
      return {
        events: total,
        feed_first_render_ms: Math.round(firstRenderMs),
        feed_scroll_ms: Math.round(scroll.ms),
        feed_scroll_frames: scroll.frames,
        feed_dropped_frames: scroll.dropped,
        feed_rescroll_ms: Math.round(again.ms),
        feed_rescroll_dropped_frames: again.dropped,
        feed_dom_rows: domRows,
        browse_entries: ENTRIES,
        browse_20k_first_rows_ms: Math.round(median(bigMs)),
        browse_20k_first_rows_max_ms: Math.round(Math.max(...bigMs)),
        browse_small_first_rows_ms: Math.round(median(smallMs)),
        browse_20k_vs_small: Number((median(bigMs) / median(smallMs)).toFixed(2)),
        browse_20k_wheel_frames: wheel.scroll.frames,
        browse_20k_wheel_dropped_frames: wheel.scroll.long,
        browse_wheel_idle_dropped_frames: wheel.idle.long,
        browse_20k_wheel_max_frame_ms: Math.round(wheel.scroll.maxFrame),
        browse_20k_wheel_cpu_ms_per_frame: cpu(wheel.scroll.cpuPerFrame),
        browse_wheel_idle_cpu_ms_per_frame: cpu(wheel.idle.cpuPerFrame),
        browse_20k_wheel_placeholder_frames: wheel.scroll.placeholderFrames,
        browse_20k_scroll_ms: Math.round(fling.scroll.ms),
        browse_20k_scroll_frames: fling.scroll.frames,
        browse_20k_dropped_frames: fling.scroll.long,
        browse_idle_dropped_frames: fling.idle.long,
        browse_20k_max_frame_ms: Math.round(fling.scroll.maxFrame),
        browse_idle_max_frame_ms: Math.round(fling.idle.maxFrame),
        browse_20k_median_frame_ms: Number(fling.scroll.medianFrame.toFixed(1)),
        browse_20k_scroll_cpu_ms_per_frame: cpu(fling.scroll.cpuPerFrame),
        browse_idle_cpu_ms_per_frame: cpu(fling.idle.cpuPerFrame),
        browse_20k_rescroll_dropped_frames: browseAgain.scroll.long,
        browse_rescroll_idle_dropped_frames: browseAgain.idle.long,
        browse_20k_rescroll_max_frame_ms: Math.round(browseAgain.scroll.maxFrame),
        browse_20k_rescroll_cpu_ms_per_frame: cpu(browseAgain.scroll.cpuPerFrame),
        browse_20k_dom_rows: fling.scroll.rows,
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
