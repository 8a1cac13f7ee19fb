import { describe, expect, it } from 'vitest';
import type { ActivityEvent } from '../../src/shared/app-api';
import { BURST_GAP_MS, feedRows } from '../../src/renderer/views/feed-rows';

// The activity feed's rows: days as headings, bursts of one person's same action as one line.
// Local time: a day is the reader's calendar day.

const NOW = new Date(2026, 10, 27, 15, 0).getTime();
let nextId = 1000;

function ev(
  minutesAgo: number,
  who: { id: number; name: string },
  did: string,
  item: { kind: 'file' | 'folder'; name: string } | null = { kind: 'file', name: 'a.txt' },
  workspaceId = 4,
): ActivityEvent {
  const id = nextId--;
  return {
    id,
    at: new Date(NOW - minutesAgo * 60_000).toISOString(),
    workspaceId,
    actorId: who.id,
    subject: who.name,
    predicate: did,
    objects: [
      ...(item
        ? [
            {
              text: item.name,
              label: item.kind === 'file' ? 'File' : 'Folder',
              kind: item.kind,
              id,
              workspaceId,
            },
          ]
        : []),
      {
        text: 'Q3 Planning',
        label: 'Workspace',
        kind: 'workspace' as const,
        id: workspaceId,
        workspaceId,
      },
    ],
    complement: '',
    text: '',
  };
}

const ann = { id: 1, name: 'Ann Lee' };
const kenji = { id: 2, name: 'Kenji Sato' };
const types = (rows: ReturnType<typeof feedRows>) => rows.map((r) => r.type);

describe('feed rows', () => {
  it('groups one person’s uploads close together into one line, and opens it onto them', () => {
    const burst = Array.from({ length: 48 }, (_, i) => ev(10 + i * 0.1, ann, 'uploaded'));
    const events = [ev(1, kenji, 'deleted'), ...burst, ev(200, ann, 'uploaded')];
    const rows = feedRows(events, new Set(), NOW);
    expect(types(rows)).toEqual(['day', 'event', 'burst', 'event']);
    const line = rows[2]!;
    expect(line).toMatchObject({ type: 'burst', kind: 'file', workspace: 'Q3 Planning' });
    expect(line.type === 'burst' && line.events.length).toBe(48);

    // Opened by any of its events' ids: it stays open as a pushed upload joins it on top.
    const open = feedRows(events, new Set([burst[5]!.id]), NOW);
    expect(types(open)).toEqual(['day', 'event', 'burst', ...Array(48).fill('member'), 'event']);
  });

  it('breaks a burst at another person, another action, another workspace, a long pause', () => {
    const rows = feedRows(
      [
        ev(1, ann, 'uploaded'),
        ev(2, ann, 'uploaded'),
        ev(3, kenji, 'uploaded'),
        ev(4, ann, 'uploaded'),
        ev(5, ann, 'deleted'),
        ev(6, ann, 'uploaded', { kind: 'file', name: 'b' }, 9),
        ev(7, ann, 'uploaded', { kind: 'folder', name: 'c' }),
        ev(7 + BURST_GAP_MS / 60_000 + 1, ann, 'uploaded', { kind: 'folder', name: 'd' }),
        ev(100, ann, 'updated', null), // the workspace itself: never grouped
        ev(101, ann, 'updated', null),
      ],
      new Set(),
      NOW,
    );
    expect(types(rows)).toEqual(['day', 'burst', ...Array(8).fill('event')]);
  });

  it('heads each day: Today, Yesterday, then earlier days; a burst never spans midnight', () => {
    const startOfToday = new Date(2026, 10, 27).getTime();
    const minutesAgo = (t: number) => (NOW - t) / 60_000;
    const rows = feedRows(
      [
        ev(minutesAgo(startOfToday + 60_000), ann, 'uploaded'),
        ev(minutesAgo(startOfToday - 60_000), ann, 'uploaded'),
        ev(minutesAgo(startOfToday - 3 * 86_400_000), ann, 'uploaded'),
      ],
      new Set(),
      NOW,
    );
    expect(rows.filter((r) => r.type === 'day').map((r) => r.type === 'day' && r.relation)).toEqual(
      ['today', 'yesterday', 'earlier'],
    );
    expect(types(rows)).toEqual(['day', 'event', 'day', 'event', 'day', 'event']);
    // Each row knows its day's relation: earlier days' rows say the time of day.
    expect(rows.filter((r) => r.type === 'event').map((r) => r.type === 'event' && r.day)).toEqual([
      'today',
      'yesterday',
      'earlier',
    ]);
  });
});
