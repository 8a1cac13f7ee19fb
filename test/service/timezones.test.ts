import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { formatInZone, parseClientTime } from '../../src/service/time';
import { addMember, client, newUser, userOf } from './helpers';

let sb: RunningSandbox;

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
});

afterAll(async () => {
  await sb?.close();
});

/** What the service must answer for `ms` in `zone`, computed independently with luxon. */
function expected(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}

describe('times in responses', () => {
  it('shows one instant in each requesting user’s zone', async () => {
    const ny = userOf(sb, 'Administrator');
    const tokyo = userOf(sb, 'Collaborator');
    expect(ny.time_zone).toBe('America/New_York');
    expect(tokyo.time_zone).toBe('Asia/Tokyo');
    const path = `/workspaces/${sb.workspaceId}`;
    const a = (await client(sb, ny.token).get(path)).json.workspace.updated_at as string;
    const b = (await client(sb, tokyo.token).get(path)).json.workspace.updated_at as string;
    expect(a).not.toBe(b);
    expect(DateTime.fromISO(a).toMillis()).toBe(DateTime.fromISO(b).toMillis());
    const stored = sb.sandbox.db
      .prepare(`SELECT updated_at FROM workspaces WHERE id = ?`)
      .pluck()
      .get(sb.workspaceId) as number;
    expect(a).toBe(expected(stored, 'America/New_York'));
    expect(b).toBe(expected(stored, 'Asia/Tokyo'));
    expect(a).toMatch(/-0[45]:00$/);
    expect(b).toMatch(/\+09:00$/);
  });

  it('uses every seeded user’s own zone, none of them UTC', async () => {
    const stored = sb.sandbox.db
      .prepare(`SELECT updated_at FROM workspaces WHERE id = ?`)
      .pluck()
      .get(sb.workspaceId) as number;
    for (const u of sb.users) {
      expect(u.time_zone).not.toBe('UTC');
      const res = await client(sb, u.token).get(`/workspaces/${sb.workspaceId}`);
      expect(res.json.workspace.updated_at, u.time_zone).toBe(expected(stored, u.time_zone));
    }
  });

  it('handles zones with odd offsets (Kathmandu +05:45, Chatham) in responses', async () => {
    for (const zone of ['Asia/Kathmandu', 'Pacific/Chatham', 'America/St_Johns']) {
      const u = await newUser(sb, zone);
      const res = await client(sb, u.token).post('/workspaces', { json: { name: zone } });
      const stored = sb.sandbox.db
        .prepare(`SELECT updated_at FROM workspaces WHERE id = ?`)
        .pluck()
        .get(res.json.workspace.id) as number;
      expect(res.json.workspace.updated_at).toBe(expected(stored, zone));
    }
  });

  it('shows events in the reader’s zone', async () => {
    const tokyo = userOf(sb, 'Collaborator');
    const berlin = userOf(sb, 'Moderator');
    const [t] = (await client(sb, tokyo.token).get('/activity')).json.items;
    const [g] = (await client(sb, berlin.token).get('/activity')).json.items;
    expect(t.event.id).toBe(g.event.id);
    expect(t.event.updated_at).toMatch(/\+09:00$/);
    expect(DateTime.fromISO(t.event.updated_at).toMillis()).toBe(
      DateTime.fromISO(g.event.updated_at).toMillis(),
    );
  });

  it('follows the zone when the user is added to another workspace', async () => {
    const u = await newUser(sb, 'Australia/Lord_Howe'); // half-hour DST shift
    addMember(sb, sb.workspaceId, u, 'Viewer');
    const res = await client(sb, u.token).get(`/workspaces/${sb.workspaceId}`);
    const ms = DateTime.fromISO(res.json.workspace.updated_at).toMillis();
    expect(res.json.workspace.updated_at).toBe(expected(ms, 'Australia/Lord_Howe'));
  });
});

describe('formatInZone and parseClientTime', () => {
  const zones = [
    'America/New_York',
    'Europe/Berlin',
    'Asia/Tokyo',
    'Australia/Sydney',
    'Australia/Lord_Howe',
    'Asia/Kolkata',
    'America/Los_Angeles',
    'Pacific/Chatham',
    'UTC',
  ];

  it('agrees with luxon across a year, including every DST transition', () => {
    const start = Date.UTC(2026, 0, 1);
    // Every 7 hours and 13 minutes for a year, and every minute around each transition.
    const instants: number[] = [];
    for (let t = start; t < start + 366 * 86_400_000; t += (7 * 60 + 13) * 60_000 + 1234) {
      instants.push(t);
    }
    for (const zone of zones) {
      const probes = [...instants];
      for (let t = start; t < start + 366 * 86_400_000; t += 3_600_000) {
        const before = DateTime.fromMillis(t, { zone }).offset;
        const after = DateTime.fromMillis(t + 3_600_000, { zone }).offset;
        if (before !== after) {
          for (let m = -5; m <= 65; m++) probes.push(t + m * 60_000 + 999);
        }
      }
      for (const ms of probes) {
        expect(formatInZone(ms, zone), `${zone} ${ms}`).toBe(expected(ms, zone));
      }
    }
  });

  it('reads RFC 2822 with a zone, and zone-less in the user’s zone', () => {
    const ms = Date.UTC(2026, 10, 22, 9, 15, 3);
    expect(parseClientTime('Sun, 22 Nov 2026 09:15:03 +0000', 'Asia/Tokyo')).toBe(ms);
    expect(parseClientTime('Sun, 22 Nov 2026 18:15:03 +0900', 'America/New_York')).toBe(ms);
    const ny = DateTime.fromMillis(ms, { zone: 'America/New_York' });
    const local = ny.toFormat('EEE, d MMM yyyy HH:mm:ss', { locale: 'en-US' });
    expect(parseClientTime(local, 'America/New_York')).toBe(ms);
    expect(parseClientTime(local, 'Asia/Tokyo')).not.toBe(ms);
    expect(parseClientTime('not a time', 'UTC')).toBeNull();
    expect(parseClientTime('', 'UTC')).toBeNull();
  });
});
