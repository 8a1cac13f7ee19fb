import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { api, userOf } from './helpers';

let sb: RunningSandbox;
let token: string;

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
  token = userOf(sb, 'Administrator').token;
});

afterEach(() => {
  sb.setFaults('');
});

afterAll(async () => {
  await sb?.close();
});

const get = (path: string, t: string | null = token) => api(sb.baseUrl, 'GET', path, { token: t });

async function socketError(p: Promise<unknown>): Promise<Error> {
  const err = await p.then(
    () => null,
    (e: unknown) => e as Error,
  );
  expect(err).toBeInstanceOf(Error);
  return err!;
}

describe('fault kinds', () => {
  it('fail=1 answers 503 with Retry-After (from the start options)', async () => {
    const s = await startSandbox({ seed: 'empty', faults: 'fail=1' });
    try {
      const res = await api(s.baseUrl, 'GET', '/workspaces', {
        token: userOf(s, 'Administrator').token,
      });
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json.errors.base).toBeDefined();
      expect(s.sandbox.faults.injected.fail).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('after=S sets the Retry-After of 503s and 429s; a bad value is refused', async () => {
    const s = await startSandbox({ seed: 'empty', faults: 'fail=1,after=0' });
    try {
      const token = userOf(s, 'Administrator').token;
      expect((await api(s.baseUrl, 'GET', '/workspaces', { token })).headers['retry-after']).toBe(
        '0',
      );
      s.setFaults('ratelimit=1,after=3');
      // Two requests in one second are over the limit; a second's boundary may fall between
      // the first two, never between three in a row.
      let limited = await api(s.baseUrl, 'GET', '/workspaces', { token });
      for (let i = 0; i < 2 && limited.status !== 429; i++)
        limited = await api(s.baseUrl, 'GET', '/workspaces', { token });
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toBe('3');
      expect(() => s.setFaults('after=0.5')).toThrow('fault after=0.5: expected whole seconds');
    } finally {
      await s.close();
    }
  });

  it('reset=1 destroys the connection without an answer', async () => {
    sb.setFaults('reset=1');
    const err = await socketError(get('/workspaces'));
    expect(String((err as Error & { code?: string }).code ?? err.message)).toMatch(
      /SOCKET|closed|reset/i,
    );
    expect(sb.sandbox.faults.injected.reset).toBeGreaterThanOrEqual(1);
  });

  it('lost=1 commits the request but never answers it', async () => {
    sb.setFaults('lost=1');
    const name = `Lost ${Date.now()}`;
    await socketError(
      api(sb.baseUrl, 'POST', '/workspaces', { token, json: { workspace: { name } } }),
    );
    sb.setFaults('');
    const list = await get('/workspaces');
    expect(list.status).toBe(200);
    const names = (list.json.items as { workspace: { name: string } }[]).map(
      (i) => i.workspace.name,
    );
    expect(names).toContain(name);
  });

  it('latency=A-B delays but still answers', async () => {
    sb.setFaults('latency=40-60');
    sb.resetStats();
    const started = performance.now();
    const res = await get(`/workspaces/${sb.workspaceId}`);
    const elapsed = performance.now() - started;
    expect(res.status).toBe(200);
    expect(elapsed).toBeGreaterThanOrEqual(40);
    expect(sb.stats()).toEqual({ 'GET /workspaces/:id': 1 });
    expect(sb.sandbox.faults.current.latency).toEqual([40, 60]);
  });

  it('ratelimit=N answers 429 with Retry-After beyond N requests a second', async () => {
    const n = 3;
    sb.setFaults(`ratelimit=${n}`);
    const answers = await Promise.all(
      Array.from({ length: n + 5 }, () => get(`/workspaces/${sb.workspaceId}`)),
    );
    const limited = answers.filter((a) => a.status === 429);
    const ok = answers.filter((a) => a.status === 200);
    // However the burst falls across a second boundary, at least two are over the limit.
    expect(limited.length).toBeGreaterThanOrEqual(2);
    expect(ok.length).toBeGreaterThanOrEqual(n);
    expect(ok.length + limited.length).toBe(n + 5);
    expect(limited[0]!.headers['retry-after']).toBe('1');
    expect(limited[0]!.json.errors.base).toBeDefined();
    // The window is per token: another user is not limited by this one's burst.
    const other = await get('/workspaces', userOf(sb, 'Viewer').token);
    expect([200, 429]).toContain(other.status);
    expect(sb.sandbox.faults.injected.ratelimit).toBeGreaterThanOrEqual(2);
  });

  it('expire=1 answers 401 to a request with a token', async () => {
    sb.setFaults('expire=1');
    const res = await get('/workspaces');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toContain('invalid_token');
    sb.setFaults('');
    // The token itself still works: the expiry was only simulated.
    expect((await get('/workspaces')).status).toBe(200);
  });
});

describe('replay and scope', () => {
  it('replays the same fault pattern from the same seed and request sequence', async () => {
    const run = async () => {
      sb.setFaults('fail=0.5,expire=0.2,seed=42');
      const statuses: number[] = [];
      for (let i = 0; i < 24; i++) statuses.push((await get('/workspaces')).status);
      return statuses;
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(new Set(first).size).toBeGreaterThan(1);
  });

  it('never faults /_sandbox/* and does not count it', async () => {
    sb.setFaults('fail=1,reset=0');
    sb.resetStats();
    const stats = await api(sb.baseUrl, 'GET', '/_sandbox/stats');
    expect(stats.status).toBe(200);
    const faults = await api(sb.baseUrl, 'GET', '/_sandbox/faults');
    expect(faults.status).toBe(200);
    expect(faults.json.faults.fail).toBe(1);
    expect((await get('/workspaces')).status).toBe(503);
    const cleared = await api(sb.baseUrl, 'POST', '/_sandbox/faults', { json: { spec: '' } });
    expect(cleared.status).toBe(200);
    expect(cleared.json.faults.fail).toBe(0);
    expect(sb.stats()).toEqual({ 'GET /workspaces': 1 });
  });

  it('counts requests by "METHOD /template"', async () => {
    sb.resetStats();
    await get('/workspaces');
    await get(`/workspaces/${sb.workspaceId}`);
    await get(`/workspaces/${sb.workspaceId}`);
    await get('/activity');
    await api(sb.baseUrl, 'PUT', `/workspaces/${sb.workspaceId}`, {
      token,
      json: { name: 'Counted' },
    });
    expect(sb.stats()).toEqual({
      'GET /workspaces': 1,
      'GET /workspaces/:id': 2,
      'GET /activity': 1,
      'PUT /workspaces/:id': 1,
    });
    const hook = await api(sb.baseUrl, 'GET', '/_sandbox/stats');
    expect(hook.json.total).toBe(5);
    expect(hook.json.requests['GET /workspaces/:id']).toBe(2);
  });
});
