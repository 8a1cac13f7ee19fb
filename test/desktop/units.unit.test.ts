import { describe, expect, it } from 'vitest';
import type { ActivityEvent, SyncPair, SyncPairStatus } from '../../src/shared/app-api';
import type { OthersEvent } from '../../src/shared/others-activity';
import { firstArgIndex, isHandover, parseAppArgs } from '../../src/main/args';
import { NoticeBatcher, summarize, type Notice } from '../../src/main/platform/notify-batch';
import { trayMenu, type TrayMenuItem } from '../../src/main/platform/tray-menu';
import {
  TRAY_STATES,
  trayIconFile,
  trayStateOf,
  trayStatusLine,
} from '../../src/main/platform/tray-state';
import { existsSync } from 'node:fs';
import path from 'node:path';

const status = (
  state: SyncPairStatus['state'],
  extra: Partial<SyncPairStatus> = {},
): SyncPairStatus => ({
  state,
  message: '',
  items: { done: 0, total: 0 },
  bytes: { done: 0, total: 0 },
  current: null,
  problems: [],
  conflicts: [],
  lastSyncAt: null,
  ...extra,
});

const pair = (
  id: string,
  state: SyncPairStatus['state'],
  extra: Partial<SyncPair> = {},
): SyncPair => ({
  id,
  accountId: 'a',
  workspaceId: 1,
  workspaceName: `W${id}`,
  dir: `/sync/${id}`,
  paused: state === 'paused',
  status: status(state),
  ...extra,
});

describe('tray state', () => {
  it('maps pair states to one icon state, the most urgent first', () => {
    expect(trayStateOf([])).toBe('idle');
    expect(trayStateOf([pair('1', 'idle')])).toBe('idle');
    expect(trayStateOf([pair('1', 'starting')])).toBe('syncing');
    expect(trayStateOf([pair('1', 'scanning')])).toBe('syncing');
    expect(trayStateOf([pair('1', 'syncing'), pair('2', 'idle')])).toBe('syncing');
    expect(trayStateOf([pair('1', 'paused'), pair('2', 'paused')])).toBe('paused');
    expect(trayStateOf([pair('1', 'paused'), pair('2', 'idle')])).toBe('idle');
    expect(trayStateOf([pair('1', 'offline'), pair('2', 'syncing')])).toBe('offline');
    expect(trayStateOf([pair('1', 'needs-attention'), pair('2', 'offline')])).toBe('attention');
    expect(trayStateOf([pair('1', 'error'), pair('2', 'needs-attention')])).toBe('error');
    const conflicted = pair('1', 'idle', {
      status: status('idle', {
        conflicts: [{ path: 'a.txt', message: 'kept both', at: 1, id: 1, copy: 'a (c).txt' }],
      }),
    });
    expect(trayStateOf([conflicted])).toBe('attention');
    // A note of a conflict that left nothing to settle (folders merged) asks for nothing.
    const noted = pair('1', 'idle', {
      status: status('idle', { conflicts: [{ path: 'D', message: 'merged', at: 1 }] }),
    });
    expect(trayStateOf([noted])).toBe('idle');
    // A paused pair's last engine state does not count: it is paused.
    expect(trayStateOf([pair('1', 'error', { paused: true })])).toBe('paused');
    // Its engine saying so is enough, before the pair list catches up.
    expect(trayStateOf([pair('1', 'paused', { paused: false })])).toBe('paused');
  });

  it('says the state in one line', () => {
    expect(trayStatusLine([])).toBe('No folder is syncing');
    expect(trayStatusLine([pair('1', 'idle')])).toBe('Up to date');
    expect(
      trayStatusLine([
        pair('1', 'syncing', { status: status('syncing', { items: { done: 3, total: 10 } }) }),
      ]),
    ).toBe('Syncing 3 of 10 items');
    // With the engine's speed and time left; several pairs at work add up, the last one to end
    // says the time left.
    const busy = (done: number, total: number, rate: SyncPairStatus['rate']) =>
      status('syncing', { items: { done, total }, rate });
    expect(
      trayStatusLine([
        pair('1', 'syncing', {
          status: busy(1_234, 2_000, { bytesPerSecond: 3_100_000, secondsLeft: 20 }),
        }),
      ]),
    ).toBe('Syncing 1,234 of 2,000 items — 3.1 MB/s, about 20 s left');
    expect(
      trayStatusLine([
        pair('1', 'syncing', {
          status: busy(1, 10, { bytesPerSecond: 1_000_000, secondsLeft: 5 }),
        }),
        pair('2', 'syncing', { status: busy(2, 10, { bytesPerSecond: 500_000, secondsLeft: 90 }) }),
      ]),
    ).toBe('Syncing 3 of 20 items — 1.5 MB/s, about 2 min left');
    expect(
      trayStatusLine([
        pair('1', 'syncing', {
          status: busy(1, 10, { bytesPerSecond: 1_000_000, secondsLeft: 5 }),
        }),
        pair('2', 'syncing', { status: busy(2, 10, null) }),
      ]),
    ).toBe('Syncing 3 of 20 items — 1.0 MB/s');
    const reason = '1,500 changes on the service, still arriving: applied once they stop';
    expect(
      trayStatusLine([
        pair('1', 'syncing', {
          status: status('syncing', {
            message: `${reason[0]!.toUpperCase()}${reason.slice(1)}`,
            backlog: { changes: 1500, reason },
          }),
        }),
      ]),
    ).toBe('W1: 1,500 changes on the service, still arriving: applied once they stop');
    expect(trayStatusLine([pair('1', 'paused')])).toBe('W1: paused');
    expect(trayStatusLine([pair('1', 'offline')])).toBe('Offline: the service is not available');
    expect(
      trayStatusLine([pair('1', 'error', { status: status('error', { message: 'Disk full' }) })]),
    ).toBe('W1: Disk full');
  });

  it('names an icon for every state in the form each OS wants, and it exists in assets/', () => {
    const dir = path.resolve(import.meta.dirname, '../../assets/tray');
    for (const state of TRAY_STATES) {
      expect(trayIconFile(state, 'darwin')).toBe(`${state}Template.png`);
      expect(trayIconFile(state, 'win32')).toBe(`${state}.ico`);
      expect(trayIconFile(state, 'linux')).toBe(`${state}.png`);
      for (const platform of ['darwin', 'win32', 'linux'] as const)
        expect(
          existsSync(path.join(dir, trayIconFile(state, platform))),
          `${state} ${platform}`,
        ).toBe(true);
    }
  });
});

const event = (id: number, subject: string, extra: Partial<ActivityEvent> = {}): ActivityEvent => ({
  id,
  at: '2026-11-24T10:00:00Z',
  workspaceId: 7,
  actorId: 2,
  subject,
  predicate: 'uploaded',
  objects: [{ text: `file${id}.txt`, label: 'File', kind: 'file', id: 100 + id, workspaceId: 7 }],
  complement: '',
  text: `${subject} uploaded file${id}.txt`,
  ...extra,
});
const others = (e: ActivityEvent, workspaceName: string | null = 'Q3'): OthersEvent => ({
  accountId: 'acc',
  workspaceName,
  event: e,
});

describe('tray menu', () => {
  const labels = (items: TrayMenuItem[]) =>
    items.map((i) => (i.type === 'separator' ? '—' : i.label));

  it('lists the status, the last activity, the folder, the window, pause and quit', () => {
    const recent = [1, 2, 3, 4, 5, 6].map((n) => ({ accountId: 'acc', event: event(n, 'Ann') }));
    const menu = trayMenu([pair('1', 'idle')], recent);
    expect(labels(menu)).toEqual([
      'Up to date',
      '—',
      'Ann uploaded file1.txt',
      'Ann uploaded file2.txt',
      'Ann uploaded file3.txt',
      'Ann uploaded file4.txt',
      'Ann uploaded file5.txt',
      '—',
      'Open folder',
      'Open Workspace Sync',
      'Pause syncing',
      '—',
      'Quit Workspace Sync',
    ]);
    expect(menu[0]).toMatchObject({ enabled: false });
    expect(menu[2]).toMatchObject({ command: { kind: 'open-event', accountId: 'acc' } });
    expect(menu[8]).toMatchObject({ command: { kind: 'open-folder', pairId: '1' } });
  });

  it('offers resume as soon as the engines report paused', () => {
    const menu = trayMenu([pair('1', 'paused', { paused: false })], []);
    expect(menu.map((i) => (i.type === 'separator' ? '—' : i.label))).toContain('Resume syncing');
  });

  it('offers resume when every pair is paused, a folder submenu for several pairs', () => {
    const menu = trayMenu([pair('1', 'paused'), pair('2', 'paused')], []);
    expect(labels(menu)).toEqual([
      'All folders paused',
      '—',
      'Open folder',
      'Open Workspace Sync',
      'Resume syncing',
      '—',
      'Quit Workspace Sync',
    ]);
    expect(menu[2]).toMatchObject({
      type: 'submenu',
      items: [{ label: 'W1' }, { label: 'W2' }],
    });
  });

  it('keeps labels to one short line and escapes the accelerator sign', () => {
    const long = event(1, 'Ann & Ben', { text: `Ann & Ben\nuploaded ${'x'.repeat(100)}` });
    const [, , item] = trayMenu([], [{ accountId: 'a', event: long }]);
    expect(item).toMatchObject({ type: 'item' });
    const text = (item as { label: string }).label;
    expect(text.startsWith('Ann && Ben uploaded x')).toBe(true);
    expect(text.length).toBeLessThanOrEqual(61);
    expect(text).not.toContain('\n');
  });
});

describe('notification batching', () => {
  it('reads one event as itself and leads to its item', () => {
    expect(summarize([others(event(1, 'Ann Lee'))])).toEqual({
      title: 'Q3',
      body: 'Ann Lee uploaded file1.txt',
      target: {
        kind: 'item',
        accountId: 'acc',
        workspaceId: 7,
        itemKind: 'file',
        itemId: 101,
        name: 'file1.txt',
      },
    });
    expect(summarize([])).toBeNull();
  });

  it('reads a burst as who did how much where', () => {
    const burst = [
      others(event(1, 'Ann')),
      others(event(2, 'Ben')),
      others(event(3, 'Ann')),
      others(event(4, 'Chloé')),
      others(event(5, 'Ann', { predicate: 'deleted' })),
    ];
    expect(summarize(burst)).toEqual({
      title: 'Q3',
      body: 'Ann and 2 others changed 5 items in Q3',
      target: { kind: 'activity', accountId: 'acc' },
    });
    expect(summarize([others(event(1, 'Ann')), others(event(2, 'Ben'))])?.body).toBe(
      'Ann and Ben uploaded 2 items in Q3',
    );
    // The same item twice is one item; two workspaces are named by number.
    const same = event(9, 'Ann', { objects: event(1, 'Ann').objects });
    expect(summarize([others(event(1, 'Ann')), others(same, 'Launch')])?.body).toBe(
      'Ann uploaded 1 item in 2 workspaces',
    );
  });

  function clock() {
    let now = 0;
    const timers = new Map<number, { at: number; fn: () => void }>();
    let next = 1;
    return {
      timers: {
        set: (fn: () => void, ms: number) => {
          timers.set(next, { at: now + ms, fn });
          return next++;
        },
        clear: (h: unknown) => void timers.delete(h as number),
      },
      advance(ms: number) {
        now += ms;
        for (const [h, t] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
          if (t.at <= now && timers.has(h)) {
            timers.delete(h);
            t.fn();
          }
        }
      },
    };
  }

  it('makes one notice of a burst, ended by quiet or by the longest wait', () => {
    const c = clock();
    const notices: Notice[] = [];
    const b = new NoticeBatcher({
      quietMs: 2000,
      maxWaitMs: 10_000,
      notify: (n) => notices.push(n),
      timers: c.timers,
    });
    b.add([others(event(1, 'Ann'))]);
    c.advance(1500);
    b.add([others(event(2, 'Ben')), others(event(3, 'Chloé'))]);
    c.advance(1500);
    expect(notices).toEqual([]);
    c.advance(600);
    expect(notices.map((n) => n.body)).toEqual(['Ann and 2 others uploaded 3 items in Q3']);
    // A steady trickle is cut at the longest wait.
    for (let i = 0; i < 8; i++) {
      b.add([others(event(10 + i, 'Dana'))]);
      c.advance(1500);
    }
    expect(notices.map((n) => n.body)).toEqual([
      'Ann and 2 others uploaded 3 items in Q3',
      'Dana uploaded 7 items in Q3',
    ]);
  });

  it('drops events while notifications are off', () => {
    const c = clock();
    const notices: Notice[] = [];
    const b = new NoticeBatcher({
      quietMs: 10,
      maxWaitMs: 100,
      notify: (n) => notices.push(n),
      timers: c.timers,
    });
    b.add([others(event(1, 'Ann'))]);
    b.setEnabled(false);
    c.advance(200);
    b.add([others(event(2, 'Ann'))]);
    c.advance(200);
    expect(notices).toEqual([]);
    b.setEnabled(true);
    b.add([others(event(3, 'Ann'))]);
    c.advance(20);
    expect(notices.map((n) => n.body)).toEqual(['Ann uploaded file3.txt']);
  });
});

describe('app arguments', () => {
  it('finds --copy-link paths in a packaged, an unpackaged and a second-instance argv', () => {
    expect(
      parseAppArgs(['/opt/Workspace Sync/workspace-sync', '--copy-link', '/home/a/x.txt'], '/'),
    ).toEqual({
      copyLink: ['/home/a/x.txt'],
      open: [],
      files: null,
      hidden: false,
      cli: null,
    });
    expect(
      parseAppArgs(['/usr/bin/electron', '.', '--copy-link=rel/y.txt'], '/home/a').copyLink,
    ).toEqual(['/home/a/rel/y.txt']);
    // A file manager passes several, after `--`: everything after --copy-link is an item.
    expect(
      parseAppArgs(
        ['app', '--hidden', '--copy-link', '--', '/a b/1.txt', 'two.txt', '--hidden', '--'],
        '/w',
      ),
    ).toEqual({
      copyLink: ['/a b/1.txt', '/w/two.txt', '/w/--hidden', '/w/--'],
      open: [],
      files: null,
      hidden: true,
      cli: null,
    });
    expect(parseAppArgs(['app', '--copy-link'], '/').copyLink).toEqual([]);
    // Nautilus and Nemo pass URIs: decoded, a newline in a name kept in the one item.
    expect(
      parseAppArgs(['app', '--copy-link', '--', 'file:///home/a/x%0A--cli%0Async%20it.txt'], '/w')
        .copyLink,
    ).toEqual(['/home/a/x\n--cli\nsync it.txt']);
  });

  it('finds --open placeholders (a double-click), every one after it an item', () => {
    // The opener's Exec where the app is installed: `app --open -- %f`.
    const hostile = `/home/a/it's "q" $(id)\n--cli\nsync.txt.wsync`;
    expect(parseAppArgs(['/opt/ws', '--open', '--', hostile], '/')).toEqual({
      copyLink: [],
      open: [hostile],
      files: null,
      hidden: false,
      cli: null,
    });
    expect(parseAppArgs(['/opt/ws', '--open', 'rel/-x.wsync', '--copy-link'], '/w').open).toEqual([
      '/w/rel/-x.wsync',
      '/w/--copy-link',
    ]);
    expect(parseAppArgs(['/opt/ws', '--open', 'file:///home/a/r%20p.pdf.wsync'], '/').open).toEqual(
      ['/home/a/r p.pdf.wsync'],
    );
  });

  it('finds --files ACTION and its items (a files-on-demand menu entry), never a switch', () => {
    const items = ['/h/-rf.txt', '/h/a\n--cli\nsync', 'rel.txt.wsync', '--hidden'];
    expect(parseAppArgs(['/opt/ws', '--files', 'free', '--', ...items], '/w')).toEqual({
      copyLink: [],
      open: [],
      files: {
        op: 'free',
        paths: ['/h/-rf.txt', '/h/a\n--cli\nsync', '/w/rel.txt.wsync', '/w/--hidden'],
      },
      hidden: false,
      cli: null,
    });
    // An action it does not know, or no item: nothing asked.
    expect(parseAppArgs(['/opt/ws', '--files', 'delete', '--', '/h/x'], '/').files).toBeNull();
    expect(parseAppArgs(['/opt/ws', '--files', 'pin', '--'], '/').files).toBeNull();
  });

  it('hands everything after --cli to the CLI, only when --cli comes first', () => {
    expect(parseAppArgs(['app', '--cli', 'link', '--copy', 'x'], '/').cli).toEqual([
      'link',
      '--copy',
      'x',
    ]);
    expect(parseAppArgs(['app'], '/').cli).toBeNull();
    // Unpackaged (`electron .`), the app's path comes before the first argument.
    expect(parseAppArgs(['electron', '.', '--cli', 'status'], '/', 2).cli).toEqual(['status']);
    expect(firstArgIndex(true)).toBe(2);
    expect(firstArgIndex(undefined)).toBe(1);
  });

  it('never takes a switch from an item name (issue 38, attack 3)', () => {
    // A name split on its newlines by a file manager: ten arguments, --cli in the middle.
    const name =
      'invoice.pdf\n--cli\nsync\n--server=http://evil\n--token=t\n--workspace=1\n--dir=.\n--once';
    const split = ['/opt/ws', '--copy-link', ...`/home/a/${name}`.split('\n')];
    const args = parseAppArgs(split, '/home/a');
    expect(args.cli).toBeNull();
    expect(args.hidden).toBe(false);
    expect(args.copyLink).toHaveLength(8);
    expect(args.copyLink.every((p) => p.startsWith('/home/a/'))).toBe(true);
    // --cli after anything else is no switch either.
    expect(parseAppArgs(['/opt/ws', '--hidden', '--cli', 'sync'], '/').cli).toBeNull();
    expect(parseAppArgs(['/opt/ws', 'x', '--cli', 'sync'], '/').cli).toBeNull();
  });

  it('accepts only a well-formed handover from a second instance', () => {
    expect(isHandover({ argv: ['a', '--copy-link', '/x'], cwd: '/' })).toBe(true);
    expect(isHandover({ argv: [1], cwd: '/' })).toBe(false);
    expect(isHandover(null)).toBe(false);
    expect(isHandover({ argv: [] })).toBe(false);
  });
});
