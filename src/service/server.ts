// The sandbox's HTTP server. Each request: strip the base path, match a route template (http.ts,
// 404/405), count it in the stats, faults (latency, reset, fail, rate limit, expire, lost),
// authenticate the bearer token (auth.ts), then the handler in routes/<area>.ts, whose plain
// operations check the role, mutate in one transaction and record the event. Every error answer
// goes through answerAfterBody (http.ts). Plain node:http rather than a framework: the faults need
// the raw socket (a `lost` request is committed, then its connection destroyed), the events filter
// is a JSON body on a GET, and uploads stream through busboy into the blob store.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { authenticate, bearerOf } from './auth';
import type { Sandbox, User } from './context';
import {
  HttpError,
  Router,
  answerAfterBody,
  parseBody,
  sendError,
  sendJson,
  type RouteContext,
} from './http';
import { registerRoutes } from './routes';

export type ApiRouter = Router<User>;

/** Route templates of the test hooks: never faulted, never counted. */
const HOOK_PREFIX = '/_sandbox/';

function stripBase(pathname: string, basePath: string): string | null {
  if (basePath === '') return pathname;
  if (pathname === basePath) return '/';
  return pathname.startsWith(basePath + '/') ? pathname.slice(basePath.length) : null;
}

/** When a request is `lost`, its answer is swallowed and the connection destroyed instead. */
function swallowAnswer(res: ServerResponse): void {
  const destroy = () => {
    res.socket?.destroy();
    return res;
  };
  res.writeHead = destroy as unknown as ServerResponse['writeHead'];
  res.write = (() => {
    destroy();
    return false;
  }) as unknown as ServerResponse['write'];
  res.end = destroy as unknown as ServerResponse['end'];
}

export function createHttpServer(sb: Sandbox): Server {
  const router: ApiRouter = new Router<User>();
  registerRoutes(router, sb);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const method = req.method ?? 'GET';
    const path = stripBase(decodeURIComponentSafe(url.pathname), sb.config.basePath);
    if (path === null) throw HttpError.notFound(`No route for ${method} ${url.pathname}`);
    const match = router.match(method, path);
    if (!match) throw HttpError.notFound(`No route for ${method} ${path}`);
    if ('allowed' in match) {
      throw new HttpError(
        405,
        { base: [`${method} is not supported here`] },
        { allow: match.allowed.join(', ') },
      );
    }
    const { route, params } = match;
    const isHook = path.startsWith(HOOK_PREFIX);
    if (!isHook) {
      const key = `${route.method} ${route.template}`;
      sb.stats.set(key, (sb.stats.get(key) ?? 0) + 1);
      const bearer = bearerOf(req.headers.authorization);
      const fate = sb.faults.decide(bearer, bearer !== null);
      if (fate.delayMs > 0) await sleep(fate.delayMs);
      switch (fate.action) {
        case 'reset':
          req.socket.destroy();
          return;
        case 'fail':
          throw new HttpError(
            503,
            { base: ['The service is temporarily unavailable'] },
            { 'retry-after': String(sb.faults.current.after) },
          );
        case 'ratelimit':
          throw new HttpError(
            429,
            { base: ['Rate limit exceeded'] },
            { 'retry-after': String(sb.faults.current.after) },
          );
        case 'expire':
          throw new HttpError(
            401,
            { base: ['The access token expired'] },
            { 'www-authenticate': 'Bearer error="invalid_token", error_description="expired"' },
          );
        case 'lost':
          swallowAnswer(res);
          break;
        case 'none':
          break;
      }
    }
    let user: User | undefined;
    if (route.auth === 'user') {
      const auth = authenticate(sb, req.headers.authorization);
      if ('error' in auth) {
        const message =
          auth.error === 'expired'
            ? 'The access token expired'
            : auth.error === 'missing'
              ? 'You need to sign in first'
              : 'The access token is not valid';
        const err = HttpError.unauthorized(message);
        if (auth.error !== 'missing') {
          err.headers['www-authenticate'] =
            `Bearer error="invalid_token", error_description="${auth.error}"`;
        }
        throw err;
      }
      user = auth.user;
    }
    let bodyPromise: Promise<Record<string, unknown>> | undefined;
    const ctx: RouteContext<User> = {
      req,
      res,
      params,
      query: url.searchParams,
      path,
      user: user as User,
      body: () => (bodyPromise ??= parseBody(req)),
    };
    const reply = await route.handler(ctx);
    if (reply === 'handled') return;
    // Drain an unread body so that the connection can be kept alive.
    if (!bodyPromise && !req.readableEnded) req.resume();
    sendJson(res, reply.status, reply.json, reply.headers, reply.jsonText);
  };

  const server = createServer({ keepAliveTimeout: 30_000, requestTimeout: 0 }, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      // Refused before its body was read (or part way): the answer still reaches the client.
      if (err instanceof HttpError) {
        answerAfterBody(req, res, () => sendError(res, err));
        return;
      }
      // Never echo internals (or anything a request carried) to the client.
      console.error('sandbox: internal error', err instanceof Error ? err.stack : String(err));
      answerAfterBody(req, res, () =>
        sendError(res, new HttpError(500, { base: ['Internal server error'] })),
      );
    });
  });
  return server;
}

function decodeURIComponentSafe(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    throw HttpError.badRequest('The request path is not valid');
  }
}

export async function listen(server: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const h = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return `http://${h}:${addr.port}`;
}
