import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import {
  ApiError,
  InsecureConnectionError,
  NotAuthenticatedError,
  OutcomeUnknownError,
  ServerError,
  ValidationError,
} from '../../src/main/api/errors';
import { openSession, signInWithPassword, signInWithBrowser } from '../../src/main/api/oauth';
import { Transport } from '../../src/main/api/transport';
import { request } from 'undici';

// The client's transport against the real sandbox over HTTP: retries, outcome-unknown POSTs,
// token refresh, and no secret in any error.

const fast = { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 8 };
// The sandbox's 503s say "Retry-After: 1", which the client waits out; where the wait is not what
// a test is about, its faults say `after=0`.

for (const basePath of [undefined, '/api/v1']) {
  let sb: RunningSandbox;

  describe(`Transport ${basePath ? `under ${basePath}` : 'at the root'}`, () => {
    beforeAll(async () => {
      sb = await startSandbox({ seed: 'empty', basePath });
    });
    afterAll(async () => {
      await sb?.close();
    });

    function admin() {
      return sb.users.find((u) => u.role === 'Administrator')!;
    }

    async function session() {
      const a = admin();
      const tokens = await signInWithPassword({
        baseUrl: sb.baseUrl,
        clientId: sb.clientId,
        clientSecret: sb.clientSecret,
        email: a.email,
        password: a.password,
        device: 'test',
      });
      return {
        tokens,
        ...openSession({
          baseUrl: sb.baseUrl,
          clientId: sb.clientId,
          clientSecret: sb.clientSecret,
          tokens,
          transport: { retry: fast },
        }),
      };
    }

    it('refuses to send credentials over plain http to another computer', () => {
      expect(() => new Transport({ baseUrl: 'http://example.org/api' })).toThrow(
        InsecureConnectionError,
      );
      expect(() => new Transport({ baseUrl: 'https://example.org/api' })).not.toThrow();
    });

    it('keeps the base path when joining paths', () => {
      const t = new Transport({ baseUrl: sb.baseUrl });
      expect(t.url('/folders/3', { sort: 'size', verbs: ['create', 'delete'] }).toString()).toBe(
        `${sb.baseUrl}/folders/3?sort=size&verbs%5B%5D=create&verbs%5B%5D=delete`,
      );
    });

    it('shares one abort signal among many requests at once without a listener warning', async () => {
      const { transport } = await session();
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
      process.on('warning', onWarning);
      try {
        // A pass's signal: every download, archive and upload in flight listens to it.
        const signal = new AbortController().signal;
        await Promise.all(
          Array.from({ length: 40 }, () =>
            transport.requestJson({
              method: 'GET',
              path: '/workspaces',
              endpoint: 'GET /workspaces',
              signal,
            }),
          ),
        );
        // A warning is emitted on the next tick.
        await new Promise((resolve) => setImmediate(resolve));
      } finally {
        process.off('warning', onWarning);
      }
      expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
    });

    it('retries reads through failing and reset connections', async () => {
      const { transport } = await session();
      sb.setFaults('fail=0.4,reset=0.2,after=0,seed=11');
      try {
        for (let i = 0; i < 10; i++) {
          const r = await transport.requestJson({
            method: 'GET',
            path: '/workspaces',
            endpoint: 'GET /workspaces',
          });
          expect((r.json as { total_entries: number }).total_entries).toBe(1);
          // Idempotent writes go through the same faults.
          const put = await transport.requestJson({
            method: 'PUT',
            path: `/workspaces/${sb.workspaceId}`,
            endpoint: 'PUT /workspaces/:id',
            json: { workspace: { name: `Renamed ${i}` } },
          });
          expect((put.json as { workspace: { name: string } }).workspace.name).toBe(`Renamed ${i}`);
        }
      } finally {
        sb.setFaults('');
      }
    });

    it('fails a POST whose answer was lost as outcome-unknown, and the change was made', async () => {
      const { transport } = await session();
      sb.setFaults('lost=1');
      let caught: unknown;
      try {
        await transport.requestJson({
          method: 'POST',
          path: '/workspaces',
          endpoint: 'POST /workspaces',
          json: { workspace: { name: 'Lost one' } },
        });
      } catch (err) {
        caught = err;
      } finally {
        sb.setFaults('');
      }
      expect(caught).toBeInstanceOf(OutcomeUnknownError);
      const list = await transport.requestJson({
        method: 'GET',
        path: '/workspaces',
        endpoint: 'GET /workspaces',
      });
      const names = (list.json as { items: { workspace: { name: string } }[] }).items.map(
        (i) => i.workspace.name,
      );
      expect(names.filter((n) => n === 'Lost one')).toHaveLength(1);
    });

    it('gives up with a ServerError when the service keeps failing', async () => {
      const { transport } = await session();
      sb.setFaults('fail=1,after=0');
      try {
        await expect(
          transport.request({ method: 'GET', path: '/workspaces', endpoint: 'GET /workspaces' }),
        ).rejects.toBeInstanceOf(ServerError);
      } finally {
        sb.setFaults('');
      }
    });

    it('refreshes an expired access token once and goes on', async () => {
      const { transport, session: s, tokens } = await session();
      sb.advanceClock(3601);
      const r = await transport.requestJson({
        method: 'GET',
        path: '/workspaces',
        endpoint: 'GET /workspaces',
      });
      expect(r.status).toBe(200);
      expect(s.current().accessToken).not.toBe(tokens.accessToken);
    });

    it('reports signed out when a pasted token expires (nothing to refresh with)', async () => {
      const t = new Transport({ baseUrl: sb.baseUrl, retry: fast });
      const { session: s } = openSession({
        baseUrl: sb.baseUrl,
        clientId: sb.clientId,
        clientSecret: sb.clientSecret,
        tokens: { accessToken: 'not-a-real-token-at-all' },
      });
      t.tokens = s;
      const err = await t
        .request({ method: 'GET', path: '/workspaces', endpoint: 'GET /workspaces' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NotAuthenticatedError);
      expect((err as NotAuthenticatedError).signedOut).toBe(true);
    });

    it('turns a 422 into a ValidationError with the field', async () => {
      const { transport } = await session();
      const err = await transport
        .request({
          method: 'POST',
          path: '/workspaces',
          endpoint: 'POST /workspaces',
          json: { workspace: { name: '' } },
        })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).errors.name).toBeDefined();
    });

    it('signs in through the browser flow with PKCE (the sign-in page driven as a browser would)', async () => {
      const a = admin();
      const tokens = await signInWithBrowser({
        baseUrl: sb.baseUrl,
        clientId: sb.clientId,
        clientSecret: sb.clientSecret,
        async openBrowser(url) {
          const page = new URL(url);
          const form = new URLSearchParams(page.searchParams);
          form.set('email', a.email);
          form.set('password', a.password);
          const res = await request(new URL('authorize', page).toString(), {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: form.toString(),
          });
          await res.body.dump();
          expect(res.statusCode).toBe(302);
          const back = await request(String(res.headers.location));
          expect(await back.body.text()).toContain('Return to Workspace Sync');
        },
      });
      const { transport } = openSession({
        baseUrl: sb.baseUrl,
        clientId: sb.clientId,
        clientSecret: sb.clientSecret,
        tokens,
      });
      expect(
        (
          await transport.request({
            method: 'GET',
            path: '/workspaces',
            endpoint: 'GET /workspaces',
          })
        ).status,
      ).toBe(200);
    });

    it('never puts a token or a password in an error, whatever fails', async () => {
      const { transport, tokens } = await session();
      const secrets = [tokens.accessToken, tokens.refreshToken!, admin().password, sb.clientSecret];
      const errors: unknown[] = [];
      for (const spec of ['fail=1,after=0', 'lost=1', 'expire=1', 'reset=1']) {
        sb.setFaults(spec);
        errors.push(
          await transport
            .request({
              method: 'POST',
              path: '/workspaces',
              endpoint: 'POST /workspaces',
              json: { name: 'x' },
            })
            .catch((e: unknown) => e),
        );
      }
      sb.setFaults('');
      errors.push(
        await signInWithPassword({
          baseUrl: sb.baseUrl,
          clientId: sb.clientId,
          clientSecret: sb.clientSecret,
          email: admin().email,
          password: 'wrong-password-123',
        }).catch((e: unknown) => e),
      );
      for (const err of errors) {
        expect(err).toBeInstanceOf(ApiError);
        const dump = JSON.stringify({
          ...(err as object),
          message: (err as Error).message,
          stack: (err as Error).stack,
        });
        for (const s of [...secrets, 'wrong-password-123']) expect(dump).not.toContain(s);
      }
    });

    it('goes through rate limiting (after Retry-After), expiring tokens and latency', async () => {
      const { transport, session: s } = await session();
      sb.setFaults('ratelimit=2,expire=0.2,latency=1-5,seed=5');
      try {
        const results = await Promise.all(
          Array.from({ length: 8 }, () =>
            transport.requestJson({
              method: 'GET',
              path: '/workspaces',
              endpoint: 'GET /workspaces',
            }),
          ),
        );
        for (const r of results) expect(r.status).toBe(200);
        expect(s.isSignedOut).toBe(false);
        const stats = (await (await fetch(`${sb.baseUrl}/_sandbox/stats`)).json()) as {
          faults: { ratelimit: number };
        };
        expect(stats.faults.ratelimit).toBeGreaterThan(0);
      } finally {
        sb.setFaults('');
      }
    });

    it('writes no token or password into its logs while talking to a failing server', async () => {
      const a = admin();
      const lines: string[] = [];
      const log = {
        debug: (m: string, f?: Record<string, unknown>) => lines.push(m + JSON.stringify(f ?? {})),
        warn: (m: string, f?: Record<string, unknown>) => lines.push(m + JSON.stringify(f ?? {})),
      };
      const tokens = await signInWithPassword({
        baseUrl: sb.baseUrl,
        clientId: sb.clientId,
        clientSecret: sb.clientSecret,
        email: a.email,
        password: a.password,
        transport: { log },
      });
      const { transport } = openSession({
        baseUrl: sb.baseUrl,
        clientId: sb.clientId,
        clientSecret: sb.clientSecret,
        tokens,
        transport: { log, retry: fast },
      });
      sb.setFaults('fail=0.3,reset=0.2,expire=0.3,lost=0.2,after=0,seed=9');
      try {
        for (let i = 0; i < 10; i++) {
          await transport
            .request({ method: 'GET', path: '/workspaces', endpoint: 'GET /workspaces' })
            .then(
              (r) => r.body.dump(),
              () => undefined,
            );
        }
      } finally {
        sb.setFaults('');
      }
      expect(lines.length).toBeGreaterThan(10);
      const all = lines.join('\n');
      for (const secret of [
        tokens.accessToken,
        tokens.refreshToken!,
        a.password,
        sb.clientSecret,
      ]) {
        expect(all).not.toContain(secret);
      }
    });
  });
}

describe('Transport and renewed tokens', () => {
  it('retries a 401 of a token renewed meanwhile without spending its own refreshes', async () => {
    // The stand-in takes only the newest token, and each refusal stands for another request
    // renewing it (which revokes the one in flight): six renewals while this request waits.
    let current = 0;
    let refreshes = 0;
    const server = createServer((req, res) => {
      const sent = Number((req.headers.authorization ?? '').replace('Bearer t', ''));
      if (sent !== 6) {
        if (sent === current) current++;
        res.writeHead(401).end('{}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const t = new Transport({
        baseUrl: `http://127.0.0.1:${port}`,
        tokens: {
          accessToken: () => `t${current}`,
          refresh: async (failed) => {
            if (failed !== `t${current}`) return;
            refreshes++;
            current++;
          },
          canRefresh: true,
        },
      });
      const res = await t.requestJson({ method: 'GET', path: '/x', endpoint: 'GET /x' });
      expect(res.status).toBe(200);
      expect(refreshes).toBe(0);
    } finally {
      server.close();
    }
  });
});
