import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultOf } from '../../src/shared/app-api';
import { recordEvent } from '../../src/service/events';
import type { UserRow } from '../../src/service/db';
import { backendWithSandbox, type BackendWithSandbox } from './with-backend';

// The person's own downloads and views (what their syncs do) folded out of the activity feed:
// a first sync of 1,200 files leaves 1,200 such events in a row on top of what others did.
// A page reads past them a bounded number at a time, counts them, and says where to go on.

const OWN = 1_200;
let t: BackendWithSandbox;
let ann: string;

const ok: BackendWithSandbox['ok'] = (method, params) => t.ok(method, params);

beforeAll(async () => {
  t = await backendWithSandbox({
    seed: 'demo',
    prefix: 'activity-fold',
    user: 'ann@example.com',
    // The events are there before ann signs in.
    prepare: ({ sb }) => {
      const db = sb.sandbox.db;
      const ws = db.prepare('SELECT id, name FROM workspaces WHERE id = ?').get(sb.workspaceId) as {
        id: number;
        name: string;
      };
      const userBy = (email: string) =>
        db.prepare('SELECT * FROM users WHERE email = ?').get(email) as UserRow;
      db.transaction(() => {
        recordEvent(sb.sandbox, {
          workspace: ws,
          actor: userBy('kenji@example.com'),
          verb: 'download',
          predicate: 'downloaded',
          item: { kind: 'file', id: 1, name: 'Kenji took this.pdf' },
        });
        for (let i = 0; i < OWN; i++)
          recordEvent(sb.sandbox, {
            workspace: ws,
            actor: userBy('ann@example.com'),
            verb: i % 2 ? 'download' : 'read',
            predicate: i % 2 ? 'downloaded' : 'viewed',
            item: { kind: 'file', id: 1, name: `Synced ${i}.txt` },
          });
      })();
    },
  });
  ann = t.accountId;
});

afterAll(() => t?.close());

describe('activity.list with foldOwnReads', () => {
  it('marks the person’s own downloads and views, and only theirs', async () => {
    const page = await ok('activity.list', { accountId: ann, limit: 3 });
    expect(page.items.map((e) => e.ownRead)).toEqual([true, true, true]);
    expect(page.folded).toBeUndefined();
  });

  it('leaves them out, counted, a bounded number a call, and goes on where it stopped', async () => {
    let offset: number | null = 0;
    let folded = 0;
    let calls = 0;
    const kept = [];
    while (offset !== null && kept.length < 30) {
      const page: ResultOf<'activity.list'> = await ok('activity.list', {
        accountId: ann,
        offset,
        limit: 30,
        foldOwnReads: true,
      });
      calls++;
      // No call reads the whole run: at most 1,000 folded events each.
      expect(page.folded ?? 0).toBeLessThanOrEqual(1000);
      folded += page.folded ?? 0;
      kept.push(...page.items);
      offset = page.nextOffset;
    }
    expect(calls).toBe(2);
    expect(folded).toBe(OWN);
    expect(kept.some((e) => e.ownRead)).toBe(false);
    // Someone else's download stays: it is not this person's sync.
    expect(kept[0]).toMatchObject({ subject: 'Kenji Sato', predicate: 'downloaded' });
  });
});
