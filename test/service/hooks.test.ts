import { setTimeout as sleep } from 'node:timers/promises';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { api, userOf } from './helpers';

let sb: RunningSandbox;

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty', accessTokenTtlSeconds: 30 * 24 * 3600 });
});

afterAll(async () => {
  await sb?.close();
});

describe('/_sandbox hooks', () => {
  it('POST /_sandbox/users creates a user with a working token', async () => {
    const res = await api(sb.baseUrl, 'POST', '/_sandbox/users', {
      json: {
        name: 'Hook User',
        email: 'hook@example.org',
        password: 'hook-pass',
        time_zone: 'Pacific/Auckland',
      },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      name: 'Hook User',
      email: 'hook@example.org',
      time_zone: 'Pacific/Auckland',
    });
    expect(typeof res.json.id).toBe('number');
    expect(res.json.password).toBeUndefined();
    const list = await api(sb.baseUrl, 'GET', '/workspaces', { token: res.json.token });
    expect(list.status).toBe(200);
    expect(list.json.total_entries).toBe(0);
    // The password works for the password grant too.
    const grant = await api(sb.baseUrl, 'POST', '/oauth/token', {
      form: {
        grant_type: 'password',
        client_id: sb.clientId,
        client_secret: sb.clientSecret,
        username: 'hook@example.org',
        password: 'hook-pass',
      },
    });
    expect(grant.status).toBe(200);
  });

  it('validates new users', async () => {
    const base = { name: 'X', email: 'x@example.org', password: 'p', time_zone: 'UTC' };
    const badZone = await api(sb.baseUrl, 'POST', '/_sandbox/users', {
      json: { ...base, time_zone: 'Mars/Olympus' },
    });
    expect(badZone.status).toBe(422);
    expect(badZone.json.errors.time_zone).toBeDefined();
    const taken = await api(sb.baseUrl, 'POST', '/_sandbox/users', {
      json: { ...base, email: userOf(sb, 'Viewer').email },
    });
    expect(taken.status).toBe(422);
    expect(taken.json.errors.email).toEqual(['has already been taken']);
  });

  it('POST /_sandbox/clock moves the clock forward', async () => {
    const before = sb.sandbox.clock.now();
    const res = await api(sb.baseUrl, 'POST', '/_sandbox/clock', {
      json: { advance_seconds: 7200 },
    });
    expect(res.status).toBe(200);
    expect(Date.parse(res.json.now)).toBeGreaterThanOrEqual(before + 7200 * 1000);
    // New timestamps follow the moved clock.
    const ann = userOf(sb, 'Administrator');
    const put = await api(sb.baseUrl, 'PUT', `/workspaces/${sb.workspaceId}`, {
      token: ann.token,
      json: { name: 'Later' },
    });
    const updated = DateTime.fromISO(put.json.workspace.updated_at).toMillis();
    expect(updated).toBeGreaterThanOrEqual(Math.floor((before + 7200 * 1000) / 1000) * 1000);
    const back = await api(sb.baseUrl, 'POST', '/_sandbox/clock', {
      json: { advance_seconds: -5 },
    });
    expect(back.status).toBe(422);
    expect(back.json.errors.advance_seconds).toBeDefined();
  });

  it('POST /_sandbox/clock refuses a body it cannot read, naming advance_seconds', async () => {
    const held = await api(sb.baseUrl, 'POST', '/_sandbox/clock', { json: { hold: true } });
    const now = held.json.now;
    for (const json of [{}, { advance: 60 }, { seconds: 60 }, { advance_seconds: '' }]) {
      const res = await api(sb.baseUrl, 'POST', '/_sandbox/clock', { json });
      expect([400, 422], JSON.stringify(json)).toContain(res.status);
      expect(res.json.errors.advance_seconds, JSON.stringify(json)).toBeDefined();
    }
    const bad = await api(sb.baseUrl, 'POST', '/_sandbox/clock', { json: { advance: 60 } });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.advance_seconds[0]).toContain('advance');
    // Nothing moved meanwhile (the clock is held: only a request could move it).
    const after = await api(sb.baseUrl, 'POST', '/_sandbox/clock', {
      json: { advance_seconds: 0 },
    });
    expect(after.json.now).toBe(now);
    await api(sb.baseUrl, 'POST', '/_sandbox/clock', { json: { hold: false } });
  });

  it('POST /_sandbox/clock reads JSON that came labelled as a form (curl -d)', async () => {
    const held = await api(sb.baseUrl, 'POST', '/_sandbox/clock', { json: { hold: true } });
    const res = await api(sb.baseUrl, 'POST', '/_sandbox/clock', {
      body: '{"advance_seconds": 60}',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(Date.parse(res.json.now) - Date.parse(held.json.now)).toBe(60_000);
    await api(sb.baseUrl, 'POST', '/_sandbox/clock', { json: { hold: false } });
  });

  it('POST /_sandbox/clock {"hold": true} stops the clock until {"hold": false}', async () => {
    const held = await api(sb.baseUrl, 'POST', '/_sandbox/clock', { json: { hold: true } });
    expect(held.status).toBe(200);
    expect(held.json.held).toBe(true);
    const at = Date.parse(held.json.now);
    await sleep(50);
    expect(sb.sandbox.clock.now()).toBe(at);
    // What happens meanwhile gets the held time.
    const ann = userOf(sb, 'Administrator');
    const put = await api(sb.baseUrl, 'PUT', `/workspaces/${sb.workspaceId}`, {
      token: ann.token,
      json: { name: 'Held' },
    });
    expect(DateTime.fromISO(put.json.workspace.updated_at).toMillis()).toBe(
      Math.floor(at / 1000) * 1000,
    );
    // Holding again keeps the time; advancing moves the held time.
    const again = await api(sb.baseUrl, 'POST', '/_sandbox/clock', {
      json: { hold: true, advance_seconds: 60 },
    });
    expect(Date.parse(again.json.now)).toBe(at + 60_000);
    const released = await api(sb.baseUrl, 'POST', '/_sandbox/clock', { json: { hold: false } });
    expect(released.json.held).toBe(false);
    expect(Date.parse(released.json.now)).toBeGreaterThanOrEqual(at + 60_000);
    await sleep(20);
    expect(sb.sandbox.clock.now()).toBeGreaterThan(Date.parse(released.json.now));
    const bad = await api(sb.baseUrl, 'POST', '/_sandbox/clock', { json: { hold: 'yes' } });
    expect(bad.status).toBe(422);
    expect(bad.json.errors.hold).toBeDefined();
    expect(sb.sandbox.clock.held).toBe(false);
  });

  it('GET and DELETE /_sandbox/stats', async () => {
    const ann = userOf(sb, 'Administrator');
    await api(sb.baseUrl, 'DELETE', '/_sandbox/stats');
    await api(sb.baseUrl, 'GET', '/workspaces', { token: ann.token });
    await api(sb.baseUrl, 'GET', '/workspaces', { token: ann.token });
    const stats = await api(sb.baseUrl, 'GET', '/_sandbox/stats');
    expect(stats.status).toBe(200);
    expect(stats.json.total).toBe(2);
    expect(stats.json.requests).toEqual({ 'GET /workspaces': 2 });
    expect(stats.json.faults).toHaveProperty('fail');
    const del = await api(sb.baseUrl, 'DELETE', '/_sandbox/stats');
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await api(sb.baseUrl, 'GET', '/_sandbox/stats')).json.total).toBe(0);
  });

  it('GET and POST /_sandbox/faults; an invalid spec is a 422', async () => {
    const set = await api(sb.baseUrl, 'POST', '/_sandbox/faults', {
      json: { spec: 'latency=5-10,seed=9' },
    });
    expect(set.status).toBe(200);
    expect(set.json.faults).toMatchObject({ latency: [5, 10], seed: 9, fail: 0 });
    const shown = await api(sb.baseUrl, 'GET', '/_sandbox/faults');
    expect(shown.json.faults).toEqual(set.json.faults);
    for (const spec of ['fail=2', 'bogus=1', 'latency=9-1', 'ratelimit=-1']) {
      const bad = await api(sb.baseUrl, 'POST', '/_sandbox/faults', { json: { spec } });
      expect(bad.status, spec).toBe(422);
      expect(bad.json.errors.spec, spec).toBeDefined();
    }
    // A rejected spec leaves the settings as they were.
    expect((await api(sb.baseUrl, 'GET', '/_sandbox/faults')).json.faults.latency).toEqual([5, 10]);
    const cleared = await api(sb.baseUrl, 'POST', '/_sandbox/faults', {
      form: { spec: '' },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.json.faults.latency).toEqual([0, 0]);
  });
});
