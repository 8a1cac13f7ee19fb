import type { CDPSession, Page } from 'playwright-core';

// Browse's list scrolled in Chromium, measured so that a machine shared with other work does not
// decide the figures: the scroll runs in chunks of frames, each followed by as many frames of the
// same page doing nothing (the floor, dropped by the machine alone), and the renderer's main
// thread is timed in CPU time (what the page costs, whatever else runs) from the DevTools
// protocol's metrics in thread ticks.

/** A frame longer than two of 60 Hz dropped at least one. */
export const LONG_FRAME_MS = 2 * (1000 / 60);
/** Frames of scrolling (then as many idle) at a time. */
const CHUNK = 60;

/**
 * `frames` animation frames of the Browse list, each moved by `px` pixels (or by a screen, or not
 * at all) before the next. Each frame notes whether a row in view still showed its placeholder
 * (what a person sees as a loading bar). Ends early once the row `until` shows its entry.
 */
const FRAMES = (move: string, frames: number, until: number) => `new Promise((resolve) => {
  const box = document.querySelector('.entries-scroll');
  const head = document.querySelector('.entries-head').offsetHeight;
  const stamps = [];
  let placeholderFrames = 0;
  let reached = false;
  const step = (now) => {
    stamps.push(now);
    const top = box.scrollTop - head;
    const bottom = box.scrollTop + box.clientHeight - head;
    const waiting = [...box.querySelectorAll('.placeholder[data-index]')].some((r) => {
      const y = Number(r.dataset.index) * 40;
      return y + 40 > top && y < bottom;
    });
    if (waiting) placeholderFrames++;
    reached = ${until} >= 0 && box.querySelector('[data-index="${until}"]:not(.placeholder)') !== null;
    if (reached || stamps.length > ${frames}) {
      const gaps = stamps.slice(1).map((t, i) => t - stamps[i]);
      resolve({ gaps, placeholderFrames, reached, rows: box.querySelectorAll('[data-index]').length });
      return;
    }
    ${move === 'idle' ? '' : `box.scrollTop += ${move === 'screen' ? 'box.clientHeight' : move};`}
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
})`;

interface Chunk {
  gaps: number[];
  placeholderFrames: number;
  reached: boolean;
  rows: number;
}

export interface Run {
  frames: number;
  /** Frames longer than LONG_FRAME_MS. */
  long: number;
  maxFrame: number;
  medianFrame: number;
  /** Wall time of the frames. */
  ms: number;
  /** The renderer's main thread, CPU ms per frame. */
  cpuPerFrame: number;
  placeholderFrames: number;
  rows: number;
}

export interface Interleaved {
  scroll: Run;
  idle: Run;
}

async function mainThreadMs(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as {
    metrics: { name: string; value: number }[];
  };
  // ThreadTime: the renderer main thread's CPU time, in seconds.
  return (metrics.find((m) => m.name === 'ThreadTime')?.value ?? NaN) * 1000;
}

function summary(chunks: Chunk[], cpuMs: number): Run {
  const gaps = chunks.flatMap((c) => c.gaps);
  const sorted = [...gaps].sort((a, b) => a - b);
  return {
    frames: gaps.length,
    long: gaps.filter((g) => g > LONG_FRAME_MS).length,
    maxFrame: sorted.at(-1) ?? 0,
    medianFrame: sorted[Math.floor(sorted.length / 2)] ?? 0,
    ms: gaps.reduce((a, b) => a + b, 0),
    cpuPerFrame: gaps.length > 0 ? cpuMs / gaps.length : 0,
    placeholderFrames: chunks.reduce((n, c) => n + c.placeholderFrames, 0),
    rows: chunks.at(-1)?.rows ?? 0,
  };
}

/**
 * Scrolls the list from where it is by `move` a frame ('screen': one screen) in chunks of
 * frames, each followed by as many idle frames, until `frames` frames have scrolled or the row
 * `until` shows its entry (-1: no such end).
 */
export async function scrollInterleaved(
  page: Page,
  move: string,
  { frames, until }: { frames: number; until: number },
): Promise<Interleaved> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const scroll: Chunk[] = [];
  const idle: Chunk[] = [];
  let scrollCpu = 0;
  let idleCpu = 0;
  try {
    for (let done = 0; done < frames; done += CHUNK) {
      const t0 = await mainThreadMs(cdp);
      const chunk = await page.evaluate<Chunk>(FRAMES(move, Math.min(CHUNK, frames - done), until));
      const t1 = await mainThreadMs(cdp);
      const still = await page.evaluate<Chunk>(FRAMES('idle', chunk.gaps.length, -1));
      const t2 = await mainThreadMs(cdp);
      scroll.push(chunk);
      idle.push(still);
      scrollCpu += t1 - t0;
      idleCpu += t2 - t1;
      if (chunk.reached) break;
    }
  } finally {
    await cdp.detach();
  }
  return { scroll: summary(scroll, scrollCpu), idle: summary(idle, idleCpu) };
}
