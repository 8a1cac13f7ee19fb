import type { IncomingMessage, ServerResponse } from 'node:http';

export type ErrorMap = Record<string, string[]>;

/** An error that becomes an HTTP answer in the conventions' shape `{"errors": {...}}`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorMap,
    readonly headers: Record<string, string> = {},
  ) {
    super(
      Object.entries(errors)
        .map(([k, v]) => `${k} ${v.join(', ')}`)
        .join('; '),
    );
  }

  static badRequest(message: string, field = 'base'): HttpError {
    return new HttpError(400, { [field]: [message] });
  }
  static unauthorized(message = 'You need to sign in first'): HttpError {
    return new HttpError(401, { base: [message] }, { 'www-authenticate': 'Bearer realm="api"' });
  }
  static forbidden(message = 'You are not allowed to do that'): HttpError {
    return new HttpError(403, { base: [message] });
  }
  static notFound(message = 'Not found'): HttpError {
    return new HttpError(404, { base: [message] });
  }
  static validation(field: string, message: string): HttpError {
    return new HttpError(422, { [field]: [message] });
  }
  static tooLarge(message = 'Request body is too large'): HttpError {
    return new HttpError(413, { base: [message] });
  }
}

export const JSON_LIMIT = 1024 * 1024;

export type Params = Record<string, string>;

export interface RouteContext<U> {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly params: Params;
  readonly query: URLSearchParams;
  /** The authenticated user (routes with `auth: 'user'` only). */
  readonly user: U;
  /** The parsed JSON or form body (objects only; `{}` when there is none). */
  body(): Promise<Record<string, unknown>>;
  /** The request path below the base path, without the query. */
  readonly path: string;
}

/** What a handler answers: JSON with a status, an empty answer, or "already written". */
export type Reply =
  | {
      status: number;
      json?: unknown;
      /** JSON already serialized, instead of `json` (hot paths build the text directly). */
      jsonText?: string;
      headers?: Record<string, string>;
    }
  | 'handled';

export interface Route<U> {
  method: string;
  template: string;
  auth: 'user' | 'none';
  segments: string[];
  handler: (ctx: RouteContext<U>) => Reply | Promise<Reply>;
}

// Parameter kinds: `:id`-like names are integers; `:item` is folders|files; `:token` and
// `:token`-like names take any segment that is not all digits (tokens always hold a letter).
function matchSegment(pattern: string, value: string, params: Params): boolean {
  if (!pattern.startsWith(':')) return pattern === value;
  const name = pattern.slice(1);
  if (name === 'item') {
    if (value !== 'folders' && value !== 'files') return false;
  } else if (name === 'token') {
    if (/^\d+$/.test(value) || value === '') return false;
  } else if (!/^\d{1,15}$/.test(value)) {
    return false;
  }
  params[name] = value;
  return true;
}

export class Router<U> {
  private readonly routes: Route<U>[] = [];

  add(
    method: string,
    template: string,
    handler: Route<U>['handler'],
    opts: { auth?: 'user' | 'none' } = {},
  ): void {
    this.routes.push({
      method,
      template,
      auth: opts.auth ?? 'user',
      segments: template.split('/').filter((s) => s !== ''),
      handler,
    });
  }

  /** The route for a method and path, or which methods the path allows (for a 405). */
  match(
    method: string,
    path: string,
  ): { route: Route<U>; params: Params } | { allowed: string[] } | null {
    const parts = path.split('/').filter((s) => s !== '');
    const allowed = new Set<string>();
    for (const route of this.routes) {
      if (route.segments.length !== parts.length) continue;
      const params: Params = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        ok = matchSegment(route.segments[i]!, parts[i]!, params);
      }
      if (!ok) continue;
      const m = route.method === 'GET' && method === 'HEAD' ? 'HEAD' : route.method;
      if (m === method) return { route, params };
      allowed.add(route.method);
    }
    return allowed.size > 0 ? { allowed: [...allowed] } : null;
  }
}

/** Reads the whole body up to `limit` bytes, or throws 413. */
export async function readBody(req: IncomingMessage, limit = JSON_LIMIT): Promise<Buffer> {
  // Most requests (every GET but the events filter) have no body at all: skip the stream.
  if (!hasBody(req)) return Buffer.alloc(0);
  const declared = Number(req.headers['content-length'] ?? 0);
  // The rest of a refused body is left for `answerAfterBody` (it reads and discards it).
  if (declared > limit) throw HttpError.tooLarge();
  // Not with an async iterator: leaving one early destroys the request, and with it the
  // connection, before the 413 is written.
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err?: unknown) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', done);
      if (err) reject(err);
      else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        done(HttpError.tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => done();
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', done);
  });
}

function hasBody(req: IncomingMessage): boolean {
  return (
    req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined
  );
}

/**
 * How much of a body still unread when the answer is ready (a request refused from its headers,
 * or part way) is read and discarded first, so that the connection stays open. Past that the
 * answer closes the connection.
 */
export const DRAIN_LIMIT = 4 * 1024 * 1024;

/** How long a body is waited for before the answer, and read (and discarded) after a close. */
const LINGER_MS = 5_000;

/**
 * Answers (`send`) a request whose body may not be read to its end, the way a real server does,
 * so that the client can read the answer. Closing a connection with bytes unread resets it, and
 * a client still sending its body then gets EPIPE or ECONNRESET instead of the answer: so the
 * rest of the body is read and discarded first, up to DRAIN_LIMIT, and the connection kept. Past
 * that the answer says `Connection: close`, and once it is written only the sending side is
 * closed: what still comes is read and discarded until it ends or the client closes (for at most
 * LINGER_MS: a reset while the client still sends can make it lose the answer it has).
 */
export function answerAfterBody(req: IncomingMessage, res: ServerResponse, send: () => void): void {
  if (req.complete || req.readableEnded || req.destroyed || !hasBody(req)) {
    send();
    return;
  }
  let seen = 0;
  let settled = false;
  // A body that stalls does not hold the answer back for long: it is answered, closing.
  const stalled = setTimeout(() => settle(true), LINGER_MS);
  stalled.unref();
  const settle = (close: boolean) => {
    if (settled) return;
    settled = true;
    clearTimeout(stalled);
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('close', onClose);
    if (res.destroyed) return;
    if (close) lingerAfter(req, res);
    send();
  };
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_LIMIT) settle(true);
  };
  const onEnd = () => settle(false);
  const onClose = () => settle(true);
  req.on('data', onData);
  req.once('end', onEnd);
  req.once('close', onClose);
  req.resume();
}

/**
 * Makes the answer close the connection gently. Node destroys a `Connection: close` answer's
 * socket as soon as it is written (`destroySoon`), which with a body unread is a reset that can
 * overtake the answer on its way. Instead only the sending side ends (the answer, then FIN), and
 * the body still flowing in is discarded until it ends or the client closes.
 */
function lingerAfter(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('connection', 'close');
  const socket = res.socket;
  if (!socket) return;
  socket.destroySoon = () => {
    // Only once the answer has left: a destroy drops what is still buffered.
    const stop = () => {
      if (socket.writableFinished) socket.destroy();
      else socket.once('finish', () => socket.destroy());
    };
    const timer = setTimeout(stop, LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.once('end', stop);
    req.once('end', stop);
    socket.end();
    if (req.readableEnded) stop();
    else req.resume();
  };
}

/** Form keys like `workspace[name]` and `verbs[]` become nested objects and arrays. */
export function parseForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!m) continue;
    const path = [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!)];
    let node: Record<string, unknown> = out;
    for (let i = 0; i < path.length; i++) {
      const k = path[i]!;
      const last = i === path.length - 1;
      const nextIsArray = !last && path[i + 1] === '';
      if (last) {
        if (k === '') continue;
        node[k] = value;
      } else if (nextIsArray) {
        const arr = Array.isArray(node[k]) ? (node[k] as unknown[]) : [];
        arr.push(value);
        node[k] = arr;
        break;
      } else {
        const child = node[k];
        node = (
          child && typeof child === 'object' && !Array.isArray(child) ? child : (node[k] = {})
        ) as Record<string, unknown>;
      }
    }
  }
  return out;
}

export async function parseBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req);
  if (raw.length === 0) return {};
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const text = raw.toString('utf8');
  if (type === 'application/x-www-form-urlencoded') return parseForm(text);
  if (
    type === '' ||
    type === 'application/json' ||
    type.endsWith('+json') ||
    type === 'text/plain'
  ) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw HttpError.badRequest('The request body is not valid JSON');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw HttpError.badRequest('The request body must be a JSON object');
    }
    return parsed as Record<string, unknown>;
  }
  throw new HttpError(415, { base: [`Unsupported content type ${type}`] });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  json: unknown,
  headers: Record<string, string> = {},
  jsonText?: string,
): void {
  if (json === undefined && jsonText === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const body = jsonText ?? JSON.stringify(json);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

export function sendError(res: ServerResponse, err: HttpError): void {
  sendJson(res, err.status, { errors: err.errors }, err.headers);
}

/** A body value as a strict boolean (JSON true/false, or form "true"/"1"/"false"/"0"). */
export function asBool(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1' || value === 1) return true;
  if (value === 'false' || value === '0' || value === 0) return false;
  throw HttpError.validation(field, 'must be true or false');
}

/** A body or query value as a non-negative integer id. */
export function asId(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw HttpError.validation(field, 'must be an integer');
  return n;
}

/** A body object that may come wrapped under `key` or flat. */
export function unwrap(body: Record<string, unknown>, key: string): Record<string, unknown> {
  const inner = body[key];
  return inner && typeof inner === 'object' && !Array.isArray(inner)
    ? (inner as Record<string, unknown>)
    : body;
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
