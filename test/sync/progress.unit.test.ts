import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/main/journal/journal';
import { planWork } from '../../src/main/sync/down/plan';
import type { ArchiveJob, Placement, Plan } from '../../src/main/sync/down/plan-types';
import { RateMeter } from '../../src/main/sync/loop/rate';
import { StatusModel, type EngineEvents } from '../../src/main/sync/loop/status';
import { Refusals } from '../../src/main/sync/up/refusals';
import { silentLogger } from '../../src/main/sync/ports';
import {
  bytesWords,
  durationWords,
  progressFraction,
  progressWords,
  rateWords,
  stepWords,
} from '../../src/shared/progress-words';
import { translator } from '../../src/shared/i18n';
import type { SyncStatus } from '../../src/shared/sync-status';

// The progress model (docs/SYNC.md, Progress) with a clock the test moves: totals, clamping,
// the rolling rate and the time left, and the words the CLI, the tray and the window share.

const journals: Journal[] = [];
afterEach(() => {
  for (const j of journals.splice(0)) j.close();
});

function model() {
  let now = 1_000_000;
  const journal = new Journal(':memory:');
  journals.push(journal);
  const emitter = new EventEmitter<EngineEvents>();
  const seen: SyncStatus[] = [];
  emitter.on('status', (s) => seen.push(s));
  const status = new StatusModel(journal, silentLogger, emitter, () => now);
  const events = status.progressEvents(new Refusals(), 'down');
  return {
    status,
    events,
    seen,
    advance: (ms: number) => (now += ms),
  };
}

describe('the progress model', () => {
  it('never shows more done than the total: work past the plan grows it', () => {
    const m = model();
    m.status.beginWork(2, 1_000, 'Syncing 2 items');
    m.events.done();
    m.events.bytes(600);
    m.events.done();
    // A file fetched again after its archive was cut: one more item, 700 more bytes.
    m.events.done();
    m.events.bytes(700);
    const s = m.status.snapshot();
    expect(s.items).toEqual({ done: 3, total: 3 });
    expect(s.bytes).toEqual({ done: 1_300, total: 1_300 });
    m.status.flush();
    for (const seen of m.seen) {
      expect(seen.items.done).toBeLessThanOrEqual(seen.items.total);
      expect(seen.bytes.done).toBeLessThanOrEqual(seen.bytes.total);
    }
  });

  it('says the step with its side and, for an archive, its count of files', () => {
    const m = model();
    m.status.beginWork(2_001, 4_000_000, 'Syncing');
    m.events.begin('archive', 'Big', 2_000);
    expect(m.status.snapshot().current).toEqual({
      op: 'archive',
      path: 'Big',
      side: 'down',
      files: 2_000,
    });
    expect(stepWords(m.status.snapshot().current!)).toBe(
      'Downloading 2,000 files of Big in one archive',
    );
  });

  it('has no rate in its first second, then bytes per second over the last five', () => {
    const m = model();
    m.status.beginWork(10, 10_000_000, 'Syncing');
    m.advance(500);
    m.events.bytes(500_000);
    expect(m.status.snapshot().rate).toBeNull();
    m.advance(500);
    m.events.bytes(500_000);
    // 1 MB in 1 s; 9 MB left.
    expect(m.status.snapshot().rate).toEqual({ bytesPerSecond: 1_000_000, secondsLeft: 9 });
    // Faster for long: the old pace leaves the window.
    for (let i = 0; i < 10; i++) {
      m.advance(1_000);
      m.events.bytes(400_000);
    }
    const rate = m.status.snapshot().rate!;
    expect(rate.bytesPerSecond).toBe(400_000);
    expect(rate.secondsLeft).toBeCloseTo(5_000_000 / 400_000);
    // Stalled: the speed falls with time, and no time left is promised at no speed.
    m.advance(10_000);
    expect(m.status.snapshot().rate).toEqual({ bytesPerSecond: 0, secondsLeft: null });
  });

  it('once the bytes are in (an archive to unpack), takes the time left from the items since', () => {
    const m = model();
    m.status.beginWork(1_001, 1_000_000, 'Syncing');
    m.events.done(); // its folder
    for (let i = 0; i < 4; i++) {
      m.advance(1_000);
      m.events.bytes(250_000);
    }
    // The zip is in: no items' pace known yet (only bytes moved so far).
    expect(m.status.snapshot().rate?.secondsLeft).toBeNull();
    m.advance(1_000);
    for (let i = 0; i < 200; i++) m.events.done();
    // 200 files in a second since: 800 left, 4 s.
    expect(m.status.snapshot().rate?.secondsLeft).toBe(4);
  });

  it('drops the rate when idle', () => {
    const m = model();
    m.status.beginWork(1, 10, 'Syncing');
    m.advance(2_000);
    m.events.bytes(10);
    m.events.done();
    expect(m.status.snapshot().rate).toEqual({ bytesPerSecond: 5, secondsLeft: 0 });
    m.status.setIdle(null);
    expect(m.status.snapshot().rate).toBeUndefined();
    expect(m.status.snapshot().items).toEqual({ done: 0, total: 0 });
  });
});

describe('the rate meter', () => {
  it('keeps few samples however often it is told', () => {
    let now = 0;
    const meter = new RateMeter(() => now);
    meter.reset();
    for (let i = 1; i <= 100_000; i++) {
      now = i; // a sample a millisecond, for 100 s
      meter.sample({ done: i * 10, total: 10_000_000 }, { done: 0, total: 1 });
    }
    expect((meter as unknown as { samples: unknown[] }).samples.length).toBeLessThanOrEqual(52);
    expect(meter.rate({ done: 1_000_000, total: 10_000_000 }, { done: 0, total: 1 })).toEqual({
      bytesPerSecond: 10_000,
      secondsLeft: 900,
    });
  });
});

describe("a plan's work", () => {
  const placement = (id: number, size: number): Placement => ({
    item: {
      id,
      parentId: 1,
      kind: 'file',
      name: `f${id}`,
      size,
      updatedAt: '2026-01-01T00:00:00Z',
    } as Placement['item'],
    path: `Big/f${id}`,
    name: `f${id}`,
  });

  it('counts the files of its archives and the refused ones, and the archives’ bytes', () => {
    const files = new Map<string, Placement>();
    for (let i = 0; i < 2_000; i++) files.set(`f${i}`, placement(i, 2_000));
    const archive: ArchiveJob = { folderId: 7, files, bytes: 4_000_000, entries: 2_000 };
    const plan: Plan = {
      structure: [{ type: 'mkdir', ...placement(9_000, 0) }],
      trash: [],
      downloads: [placement(9_001, 5_000)],
      archives: [archive],
      refused: [placement(9_002, 100)],
    };
    expect(planWork(plan)).toEqual({ items: 1 + 1 + 2_000 + 1, bytes: 5_000 + 4_000_000 });
  });
});

describe('progress in words', () => {
  it('says each step as a person would', () => {
    const cases: [Parameters<typeof stepWords>[0], string][] = [
      [{ op: 'download', path: 'Reports/report.pdf', side: 'down' }, 'Downloading report.pdf'],
      [
        { op: 'archive', path: '', side: 'down', files: 2_000 },
        'Downloading 2,000 files in one archive',
      ],
      [{ op: 'archive', path: 'A/B', files: 1 }, 'Downloading 1 file of B in one archive'],
      [{ op: 'mkdir', path: 'Big/Folder 19', side: 'down' }, 'Creating the folder Folder 19'],
      [{ op: 'move', path: 'a/b.txt', side: 'down' }, 'Moving b.txt here'],
      [{ op: 'trash', path: 'old.txt', side: 'down' }, 'Moving old.txt to the trash'],
      [
        { op: 'create folder', path: 'Big/Folder 19', side: 'up' },
        'Creating Folder 19 on the service',
      ],
      [{ op: 'upload', path: 'x/report.pdf', side: 'up' }, 'Uploading report.pdf'],
      [{ op: 'move', path: 'x/Plan.txt', side: 'up' }, 'Moving Plan.txt on the service'],
      [{ op: 'rename', path: 'Plan 2.txt', side: 'up' }, 'Renaming Plan 2.txt on the service'],
      [{ op: 'delete', path: 'gone.txt', side: 'up' }, 'Deleting gone.txt on the service'],
      [{ op: 'list', path: 'x' }, 'list x'],
    ];
    for (const [op, words] of cases) expect(stepWords(op)).toBe(words);
    // Another language: its words, its digits and its plural rules.
    const de = translator('de');
    expect(stepWords({ op: 'archive', path: '', files: 2_000 }, de)).toBe(
      '2.000 Dateien werden in einem Archiv heruntergeladen',
    );
    expect(stepWords({ op: 'archive', path: 'A/B', files: 1 }, de)).toBe(
      '1 Datei aus B wird in einem Archiv heruntergeladen',
    );
    expect(progressWords({ items: { done: 1_234, total: 2_000 }, rate: null }, de)).toBe(
      '1.234 von 2.000 Elementen',
    );
    expect(bytesWords(4_100_000, de)).toBe('4,1 MB');
    expect(durationWords(7_500, de)).toBe('etwa 2 h 5 min');
  });

  it('fills a bar from items and bytes, half each, never past full', () => {
    const items = { done: 21, total: 2_021 };
    // An archive's zip half in, no file placed yet: the bar moves all the same.
    expect(progressFraction({ items, bytes: { done: 2_000_000, total: 4_000_000 } })).toBeCloseTo(
      (21 / 2_021 + 0.5) / 2,
    );
    expect(progressFraction({ items, bytes: { done: 0, total: 0 } })).toBeCloseTo(21 / 2_021);
    expect(progressFraction({ items: { done: 5, total: 4 }, bytes: { done: 9, total: 1 } })).toBe(
      1,
    );
  });

  it('says sizes, speeds and time left', () => {
    expect(bytesWords(1)).toBe('1 byte');
    expect(bytesWords(900)).toBe('900 bytes');
    expect(bytesWords(4_099_000)).toBe('4.1 MB');
    expect(bytesWords(56_000_000)).toBe('56 MB');
    expect(durationWords(0.2)).toBe('about 1 s');
    expect(durationWords(20)).toBe('about 20 s');
    expect(durationWords(200)).toBe('about 3 min');
    expect(durationWords(2 * 3600 + 300)).toBe('about 2 h 5 min');
    expect(rateWords(null)).toBe('');
    expect(rateWords({ bytesPerSecond: 3_100_000, secondsLeft: null })).toBe('3.1 MB/s');
    expect(
      progressWords({
        items: { done: 1_234, total: 2_000 },
        rate: { bytesPerSecond: 3_100_000, secondsLeft: 20 },
      }),
    ).toBe('1,234 of 2,000 items — 3.1 MB/s, about 20 s left');
  });
});
