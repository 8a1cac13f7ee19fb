import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
import { Request } from '../../shared/app-api';
import { silentLogger, type Logger } from '../core/logger';
import type { AppBackend } from './backend';
import { appError } from './errors';
import {
  contentType,
  looksLikeTraversal,
  rendererCsp,
  resolveStaticFile,
  securityHeaders,
} from './static-files';

/**
 * The web bridge of `cli ui`: the built window served from 127.0.0.1, and its typed API over one
 * WebSocket at `/api`. The page learns the per-run secret from the URL's fragment (never sent in
 * an HTTP request) and opens `ws://<host>/api?secret=<secret>`. An upgrade is refused unless the
 * secret matches (compared in constant time), the Origin is the bridge's own, and the Host is
 * 127.0.0.1:PORT or localhost:PORT (a rebound DNS name reaching this port is refused).
 */

/** The page reaches only its own origin: the WebSocket at /api. */
export const CSP = rendererCsp("'self'");

const SECURITY_HEADERS = securityHeaders(CSP);

/** Largest message the window may send (a request is a method name and small parameters). */
const MAX_MESSAGE_BYTES = 1024 * 1024;

export interface BridgeOptions {
  backend: AppBackend;
  /** The built renderer (`node scripts/build.mjs` writes out/renderer). */
  staticDir?: string;
  /** 0 (the default) for any free port. */
  port?: number;
  log?: Logger;
  /** The number of pages connected, after each connects or goes (`ui --link-options` ends). */
  onClients?: (count: number) => void;
}

export interface RunningBridge {
  /** `http://127.0.0.1:PORT/#secret=…`: what to open in a browser. */
  url: string;
  origin: string;
  port: number;
  secret: string;
  close(): Promise<void>;
}

/** Equal strings, in time that does not depend on where they differ. */
function sameSecret(given: string, secret: string): boolean {
  // Hashing first gives equal lengths, so that the length is not leaked either.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b);
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${reason.length}\r\n\r\n${reason}`,
  );
  socket.destroy();
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
  });
  res.end(text);
}

export async function startBridge(opts: BridgeOptions): Promise<RunningBridge> {
  const log = opts.log ?? silentLogger;
  const staticDir = path.resolve(opts.staticDir ?? 'out/renderer');
  const secret = randomBytes(32).toString('base64url');
  let port = 0;
  const hosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  const server = createServer((req, res) => {
    if (!hosts().has(req.headers.host ?? '')) return send(res, 421, 'Wrong host');
    serveStatic(staticDir, req, res).catch((err: unknown) => {
      log.error('bridge: serving a file failed', { err });
      if (!res.headersSent) send(res, 500, 'Internal error');
      else res.destroy();
    });
  });

  // Loaded here, not with the module: every CLI command would pay for it (~0.1 s), only `ui` needs it.
  const { WebSocketServer } = await import('ws');
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const host = req.headers.host ?? '';
    if (!hosts().has(host)) return refuseUpgrade(socket, 421, 'Wrong host');
    const url = new URL(req.url ?? '/', 'http://bridge.invalid');
    if (url.pathname !== '/api') return refuseUpgrade(socket, 404, 'Not found');
    const origin = req.headers.origin;
    if (origin !== `http://${host}`) return refuseUpgrade(socket, 403, 'Wrong origin');
    if (!sameSecret(url.searchParams.get('secret') ?? '', secret))
      return refuseUpgrade(socket, 403, 'Wrong secret');
    wss.handleUpgrade(req, socket, head, (ws) => connection(ws));
  });

  const sockets = new Set<WebSocket>();
  const unsubscribe = opts.backend.on((push) => {
    const text = JSON.stringify(push);
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(text);
  });

  function connection(ws: WebSocket): void {
    sockets.add(ws);
    opts.onClients?.(sockets.size);
    ws.on('close', () => {
      sockets.delete(ws);
      opts.onClients?.(sockets.size);
    });
    ws.on('error', () => ws.terminate());
    ws.on('message', (data, isBinary) => void answer(opts.backend, ws, data, isBinary));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  log.info('bridge listening', { origin, staticDir });

  let closed = false;
  return {
    url: `${origin}/#secret=${secret}`,
    origin,
    port,
    secret,
    async close() {
      if (closed) return;
      closed = true;
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** A file of the built renderer, for GET and HEAD only, never outside `staticDir`. */
async function serveStatic(
  staticDir: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return send(res, 405, 'Method not allowed');
  }
  const raw = req.url ?? '/';
  if (looksLikeTraversal(raw)) return send(res, 404, 'Not found');
  const pathname = new URL(raw, 'http://bridge.invalid').pathname;
  const file = await resolveStaticFile(staticDir, pathname);
  if (!file) return send(res, 404, 'Not found');
  const type = contentType(file);
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': type,
    // The page holds the secret in its URL only: nothing is worth caching across runs.
    'cache-control': 'no-store',
  });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}

/** Answers one message of the page: a request to the backend, or a refusal of what is not one. */
async function answer(
  backend: AppBackend,
  ws: WebSocket,
  data: RawData,
  isBinary: boolean,
): Promise<void> {
  let parsed: unknown;
  try {
    parsed = isBinary ? undefined : JSON.parse(data.toString());
  } catch {
    parsed = undefined;
  }
  const request = Request.safeParse(parsed);
  if (!request.success) {
    const id =
      parsed && typeof parsed === 'object' && Number.isInteger((parsed as { id?: unknown }).id)
        ? (parsed as { id: number }).id
        : -1;
    ws.send(
      JSON.stringify({
        id,
        ok: false,
        error: appError('invalid', { key: 'backend.badRequest' }),
      }),
    );
    return;
  }
  const { id, method, params } = request.data;
  const reply = await backend.call(method, params);
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id, ...reply }));
}
