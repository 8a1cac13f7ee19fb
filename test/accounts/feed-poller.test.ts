import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account, ActivityEvent } from '../../src/shared/app-api';
import type { OthersEvent } from '../../src/shared/others-activity';
import { ActivityFeed } from '../../src/main/backend/activity';
import type { SignedIn } from '../../src/main/backend/accounts';
import type { AppBackend } from '../../src/main/backend/backend';
import { OthersActivity, type Caller } from '../../src/main/host/others-activity';
import type { Logger } from '../../src/main/sync/ports';
import type { RunningSandbox } from '../../src/service/sandbox';
import type { SeededUser } from '../../src/service/seed';
import { clientFor, tokenOf } from '../sync/harness';
import { callOk } from '../backend/backend-calls';
import { backendWithSandbox, type BackendWithSandbox } from '../backend/with-backend';

// The one account-feed poller (accounts/feed-poller.ts) as both of its users run it: the
// window's activity stream and the desktop notices of others' activity. Two accounts (Ann,
// Moritz); Kenji's changes are news to both. Each test gates the first account's read, so that
// what happens while a round is under way is decided by the test, not by timing.

let t: BackendWithSandbox;
let sb: RunningSandbox;
let backend: AppBackend;
let ann: SeededUser;
let moritz: SeededUser;
let kenji: SeededUser;

beforeAll(async () => {
  // Ann first, then Moritz: the accounts' order.
  t = await backendWithSandbox({ seed: 'empty', prefix: 'feed-poller', user: 'ann@example.com' });
  ({ sb, backend } = t);
  [ann, moritz, kenji] = sb.users as [SeededUser, SeededUser, SeededUser];
  await callOk(backend, 'accounts.signIn', {
    server: sb.baseUrl,
    email: moritz.email,
    password: moritz.password,
  });
});

afterAll(() => t?.close());

/** A read held until `open()`; `entered` resolves once it has begun. */
function gate() {
  let open!: () => void;
  let entered!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  const began = new Promise<void>((r) => (entered = r));
  return { opened, began, open, entered };
}

const newFolder = async (name: string) =>
  clientFor(sb.baseUrl, tokenOf(kenji)).createFolder(sb.workspaceId, null, name);

interface Logged {
  level: string;
  msg: string;
}

function logger(): { log: Logger; lines: Logged[] } {
  const lines: Logged[] = [];
  const at = (level: string) => (msg: string) => void lines.push({ level, msg });
  return {
    log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
    lines,
  };
}

/** Either poller, its first account's reads gated, what it delivered as (account, event id). */
interface Rig {
  poller: { start(): void; stop(): Promise<void>; poll(): Promise<void> };
  delivered: { account: string; id: number }[];
  /** Holds the first account's next read until the gate opens. */
  hold(g: ReturnType<typeof gate>): void;
  /** Accounts whose feed was read, in order. */
  reads: string[];
}

async function activityRig(log: Logger, fail = false): Promise<Rig> {
  const rig: Rig = { poller: null!, delivered: [], reads: [], hold: () => {} };
  let held: ReturnType<typeof gate> | null = null;
  rig.hold = (g) => (held = g);
  const signedIn = [ann, moritz].map((u, i): SignedIn => {
    const client = clientFor(sb.baseUrl, tokenOf(u));
    const gated = Object.create(client) as typeof client;
    gated.listEvents = async function* (filters) {
      rig.reads.push(u.email);
      const g = i === 0 ? held : null;
      if (g) {
        held = null;
        g.entered();
        await g.opened;
      }
      yield* client.listEvents(filters);
    };
    return {
      info: { id: u.email, name: u.name } as Account,
      client: gated,
      userId: u.id,
    } as SignedIn;
  });
  rig.poller = new ActivityFeed({
    intervalMs: 3_600_000,
    accounts: () => Promise.resolve(signedIn),
    push: (account: string, event: ActivityEvent) => {
      if (fail) throw new Error('the window is gone');
      rig.delivered.push({ account, id: event.id });
    },
    log,
  });
  return rig;
}

async function othersRig(log: Logger, fail = false): Promise<Rig> {
  const rig: Rig = { poller: null!, delivered: [], reads: [], hold: () => {} };
  let held: ReturnType<typeof gate> | null = null;
  rig.hold = (g) => (held = g);
  const accounts = await callOk(backend, 'accounts.list', {});
  const first = accounts[0]!.id;
  const caller: Caller = {
    async call(method, params) {
      if (method === 'activity.list') {
        const { accountId } = params as { accountId: string };
        rig.reads.push(accounts.find((a) => a.id === accountId)!.email);
        const g = accountId === first ? held : null;
        if (g) {
          held = null;
          g.entered();
          await g.opened;
        }
      }
      return backend.call(method, params);
    },
  };
  rig.poller = new OthersActivity({
    backend: caller,
    intervalMs: 3_600_000,
    emit: (events: OthersEvent[]) => {
      if (fail) throw new Error('the main process is gone');
      rig.delivered.push(...events.map((e) => ({ account: e.accountId, id: e.event.id })));
    },
    log,
  });
  return rig;
}

describe.each([
  ['the activity stream', activityRig],
  ["others' activity", othersRig],
])('%s', (_, makeRig) => {
  it('once stopped mid-round, reads no further account and delivers nothing; the next start does', async () => {
    const { log } = logger();
    const rig = await makeRig(log);
    await rig.poller.poll(); // where each feed stands is noted
    const folder = await newFolder(`Made while stopping ${Math.random()}`);
    rig.reads.length = 0;
    const g = gate();
    rig.hold(g);
    const round = rig.poller.poll();
    await g.began;
    const stopped = rig.poller.stop();
    g.open();
    await stopped;
    await round;
    expect(rig.reads).toHaveLength(1); // the first account only
    expect(rig.delivered).toEqual([]);

    rig.poller.start();
    await rig.poller.poll();
    await rig.poller.stop();
    const news = rig.delivered.filter((d) => d.id > 0);
    // Both accounts hear of Kenji's folder, once each.
    expect(new Set(news.map((d) => d.account)).size).toBe(2);
    expect(news.length).toBeGreaterThanOrEqual(2);
    expect(folder.id).toBeTypeOf('number');
  });

  it('a delivery that throws is logged; the round resolves and the next one goes on', async () => {
    const { log, lines } = logger();
    const rig = await makeRig(log, true);
    await rig.poller.poll();
    await newFolder(`Made for a failing delivery ${Math.random()}`);
    await expect(rig.poller.poll()).resolves.toBeUndefined();
    expect(lines.some((l) => l.level === 'warn')).toBe(true);
    rig.reads.length = 0;
    await expect(rig.poller.poll()).resolves.toBeUndefined();
    expect(rig.reads).toHaveLength(2);
  });
});
