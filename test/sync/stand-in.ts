import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface StandInHooks {
  /** Rewrites a JSON answer of the real sandbox (path without the query). */
  json?(path: string, json: unknown): unknown;
  /** Answers GET /folders/:id/archive itself (a hostile zip), or null to pass it on. */
  archive?(folderId: number): Buffer | null;
  /**
   * Answers any request itself (a lying length, a trickle, an endless body): return true when
   * it took the request, false to pass it on. `url` is without the base path.
   */
  answer?(req: IncomingMessage, res: ServerResponse, url: URL): boolean | Promise<boolean>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A server in front of the sandbox that passes everything through but may rewrite answers:
 * what a hostile or merely different deployment would send (names the sandbox repairs, two
 * siblings with one name, zips with `../` entries and links).
 */
export async function startStandIn(
  target: string,
  hooks: StandInHooks,
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      if (hooks.answer && (await hooks.answer(req, res, url))) return;
      const archive = /^\/folders\/(\d+)\/archive$/.exec(url.pathname);
      const zip = archive && hooks.archive?.(Number(archive[1]));
      if (zip) {
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': zip.length });
        res.end(zip);
        return;
      }
      const body = await bodyOf(req);
      const headers = { ...req.headers };
      delete headers.host;
      delete headers.connection;
      const answer = await request(target + url.pathname + url.search, {
        method: req.method as 'GET',
        headers,
        body: body.length > 0 ? body : undefined,
      });
      const type = String(answer.headers['content-type'] ?? '');
      if (hooks.json && type.includes('json')) {
        const text = await answer.body.text();
        const json = hooks.json(url.pathname, text ? JSON.parse(text) : undefined);
        const out = json === undefined ? '' : JSON.stringify(json);
        res.writeHead(answer.statusCode, { 'content-type': type });
        res.end(out);
        return;
      }
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(answer.headers)) {
        if (v !== undefined && k !== 'connection' && k !== 'transfer-encoding') out[k] = v;
      }
      res.writeHead(answer.statusCode, out);
      for await (const chunk of answer.body) res.write(chunk);
      res.end();
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
