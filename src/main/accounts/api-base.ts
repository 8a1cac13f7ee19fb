import { NetworkError } from '../api/errors';
import { isLoopbackHost } from '../api/proxy';
import { Transport, type LogSink } from '../api/transport';
import { UserError } from '../errors/user-error';

/**
 * Where services put their API under a host (the contract's example base URL is
 * `https://host/api/v1`). A person often gives the host alone: without this, every request
 * answers 404, which reads as "deleted, or you no longer have access".
 */
export const KNOWN_API_PREFIXES = ['/api/v1'] as const;

/** A probe waits no longer than this: a base that does not answer is for the real requests to report. */
const PROBE_TIMEOUT_MS = 10_000;

/** What an unauthenticated `GET <base>/workspaces` says about `base`. */
type Verdict = 'api' | 'not-api' | 'unknown' | Unreachable;

/** No answer at all: the transport's failure (refused, not HTTP(S)), or null when none came in time. */
interface Unreachable {
  unreachable: NetworkError | null;
}

/** A base that gave no answer at all, for a caller that needs one (a person waiting to sign in). */
export class ServerUnreachableError extends UserError {
  constructor(
    readonly server: string,
    cause: NetworkError | null,
    waitedMs: number,
  ) {
    super(
      // The transport's own words where it has some (TLS to a plain port, a certificate).
      cause?.words && cause.words.key !== 'service.network'
        ? cause.words
        : cause
          ? { key: 'account.unreachable', params: { server, code: cause.code } }
          : { key: 'account.noAnswer', params: { server, seconds: Math.round(waitedMs / 1000) } },
    );
    this.name = 'ServerUnreachableError';
  }
}

/** A base URL that is not the service's API, and none of the known prefixes under it is. */
export class NotAnApiBaseError extends UserError {
  constructor(readonly server: string) {
    const example = new URL(server).origin + KNOWN_API_PREFIXES[0];
    super({ key: 'account.notApiBase', params: { server, example } });
    this.name = 'NotAnApiBaseError';
  }
}

/**
 * Asks `base` for its workspaces without credentials (nothing to leak, and cheap): the service
 * answers 401 (or a JSON list); a host whose API lives elsewhere answers 404, or a web page.
 * Anything else (offline, a 5xx, a timeout, plain http to another computer) is not for the
 * probe to judge: the real requests say what is wrong in their own words.
 */
async function look(
  base: string,
  log: LogSink | undefined,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<Verdict> {
  let transport: Transport;
  try {
    transport = new Transport({ baseUrl: base, retry: { maxAttempts: 1 }, log });
  } catch {
    return 'unknown';
  }
  try {
    const res = await transport.request({
      method: 'GET',
      path: '/workspaces',
      endpoint: 'GET /workspaces (API probe)',
      auth: false,
      // Every status is an answer here, not an error.
      accept: Array.from({ length: 500 }, (_, i) => i + 100),
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    const type = String(res.headers['content-type'] ?? '');
    if (res.status === 404 || res.status === 410) return 'not-api';
    if (res.status >= 200 && res.status < 300) return /json/i.test(type) ? 'api' : 'not-api';
    if (res.status === 401 || res.status === 403) return 'api';
    return 'unknown';
  } catch (err) {
    if (err instanceof NetworkError) return { unreachable: err };
    // The probe's own deadline: connected (or not yet), and no answer came.
    if ((err as { name?: unknown } | null)?.name === 'TimeoutError') return { unreachable: null };
    return 'unknown';
  }
}

/** The bases a known prefix makes of `server`: under its origin, and under its path. */
function candidates(server: string): string[] {
  const origin = new URL(server).origin;
  const out = new Set<string>();
  for (const prefix of KNOWN_API_PREFIXES) {
    out.add(origin + prefix);
    out.add(server + prefix);
  }
  out.delete(server);
  return [...out];
}

/**
 * The API base URL of `server` (normalized, without a trailing slash): `server` itself when it
 * answers as the API (or cannot be judged), else the first known prefix under it that does;
 * NotAnApiBaseError when none does. Costs one request when `server` is right.
 */
export async function findApiBase(
  server: string,
  opts: {
    log?: LogSink;
    /**
     * A server that gives no answer within this many ms is refused (ServerUnreachableError)
     * instead of left to the real requests: a person signing in is waiting.
     */
    answerWithinMs?: number;
  } = {},
): Promise<string> {
  const verdict = await look(server, opts.log, opts.answerWithinMs);
  if (typeof verdict === 'object') {
    if (opts.answerWithinMs !== undefined)
      throw new ServerUnreachableError(server, verdict.unreachable, opts.answerWithinMs);
    return server;
  }
  if (verdict !== 'not-api') return server;
  for (const candidate of candidates(server)) {
    if ((await look(candidate, opts.log)) === 'api') {
      opts.log?.warn('the API is under a known prefix', { given: server, found: candidate });
      return candidate;
    }
  }
  throw new NotAnApiBaseError(server);
}

/**
 * A server address as a person types it, made a URL: a bare host (`files.example.com`,
 * `127.0.0.1:8080/api/v1`) gets `https://`, or `http://` when it is this computer (a local
 * service or the sandbox; credentials go over plain http only there, see `assertSafeBaseUrl`).
 * An address with a scheme is left as typed, and so is a single word (below).
 */
export function withScheme(typed: string): string {
  const s = typed.trim();
  if (s === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(s)) return s;
  const authority = s.split(/[/?#]/, 1)[0]!;
  const host = authority.startsWith('[')
    ? authority.slice(0, authority.indexOf(']') + 1)
    : authority.replace(/:\d*$/, '');
  if (isLoopbackHost(host)) return `http://${s}`;
  // One word without a dot or a port ("files") is more likely a slip than an intranet host: it
  // is left as typed, to be refused as no address (an intranet name works with https://).
  if (!host.includes('.') && !host.startsWith('[') && authority === host) return s;
  return `https://${s}`;
}
