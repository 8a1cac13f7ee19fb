// The one door to the service: base URL joining (a path prefix is kept), the bearer token from a
// Session (refreshed once, single-flight, for every request refused together), retries, and the
// mapping of failures to the typed errors of errors.ts. Idempotent requests are retried on
// network errors, 429 (after Retry-After) and 502/503/504 with backoff and full jitter
// (retry.ts); a POST only when it certainly did not reach the server, otherwise it fails as
// OutcomeUnknownError so that the caller looks before it tries again. A connection to something
// that does not speak HTTP(S) as asked is not retried. A small loop of our own rather than
// undici's RetryAgent: that cannot tell a POST that never left from one whose answer was lost,
// cannot re-create a streamed upload body, and knows nothing of token refresh between attempts.
// What a request is: request-types.ts; an error answer read into a typed error: answer-errors.ts;
// where credentials may go: base-url.ts.
import { getMaxListeners, setMaxListeners } from 'node:events';
import { Agent, errors as undiciErrors, type Dispatcher } from 'undici';
import type { Readable } from 'node:stream';
import {
  NetworkError,
  OutcomeUnknownError,
  ProtocolError,
  RateLimitedError,
  connectionWords,
  redact,
} from './errors';
import {
  DEADLINE_CODE,
  DEFAULT_LIMITS,
  DeadlineError,
  errorCode,
  readCapped,
  type TransportLimits,
} from './bounds';
import { errorFor, retryAfterMs, serverError } from './answer-errors';
import { assertSafeBaseUrl } from './base-url';
import type {
  Body,
  LogSink,
  QueryValue,
  RawResponse,
  RequestSpec,
  TokenSource,
} from './request-types';
import { backoffDelay, DEFAULT_RETRY, isRetryableStatus, type RetryPolicy } from './retry';
import { HeldTime, processTransfers, type TransferLimits } from './throttle';
import { CONNECT_TIMEOUT_MS, POOL_OPTIONS, proxyRefusal, sharedDispatcher } from './proxy';

export const silentLog: LogSink = { debug() {}, warn() {} };

export interface TransportOptions {
  baseUrl: string;
  tokens?: TokenSource;
  dispatcher?: Dispatcher;
  retry?: Partial<RetryPolicy>;
  log?: LogSink;
  userAgent?: string;
  limits?: Partial<TransportLimits>;
  /** The upload and download limits; the process's unless given (throttle.ts). */
  transfers?: TransferLimits;
}

export { DeadlineError, type TransportLimits };
export { assertSafeBaseUrl } from './base-url';
export { extractErrors } from './answer-errors';
export type {
  Body,
  LogSink,
  Method,
  QueryValue,
  RawResponse,
  RequestSpec,
  TokenSource,
} from './request-types';

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Refreshes one request may trigger: a token refused right after a refresh is rare but possible
 * (clock skew, a server's own hiccup); more than this and the sign-in itself is the problem.
 */
const MAX_REFRESHES = 4;

/** Network error codes raised before a single byte of the request left: always safe to retry. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const NETWORK_CODES = new Set([
  ...NOT_SENT_CODES,
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  DEADLINE_CODE,
]);

/**
 * A keep-alive pool of its own, direct (tests and benches compare with it): bounded connections
 * per origin, firm timeouts. Requests without a dispatcher go through the process's shared one
 * (`proxy.ts`: the same options, and the proxy setting or the environment's proxies).
 */
export function createDispatcher(opts: { connections?: number } = {}): Agent {
  return new Agent({
    ...POOL_OPTIONS,
    connections: opts.connections ?? POOL_OPTIONS.connections,
    connect: { timeout: CONNECT_TIMEOUT_MS },
  });
}

function abortError(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * HTTP to the service: base URL joining, the bearer token (refreshed once on a 401), retries
 * with backoff for what is safe to retry, and the mapping of failures to typed errors.
 *
 * What is retried: network errors, 429 (after Retry-After), 502/503/504, for GET, HEAD, PUT and
 * DELETE (idempotent). A POST is retried only when it certainly did not reach the server: the
 * connection could not be made, or the server answered 429/503 (it says it did not handle it).
 * A POST whose connection broke after it was sent fails with OutcomeUnknownError.
 */
export class Transport {
  readonly baseUrl: URL;
  private readonly prefix: string;
  /** Null: the shared one, looked up at each request (a new proxy setting applies at once). */
  private readonly dispatcher: Dispatcher | null;
  private readonly policy: RetryPolicy;
  private readonly log: LogSink;
  private readonly userAgent: string;
  readonly limits: TransportLimits;
  readonly transfers: TransferLimits;
  tokens: TokenSource | undefined;

  constructor(opts: TransportOptions) {
    this.baseUrl = assertSafeBaseUrl(opts.baseUrl);
    this.prefix = this.baseUrl.pathname.replace(/\/+$/, '');
    this.dispatcher = opts.dispatcher ?? null;
    this.policy = { ...DEFAULT_RETRY, ...opts.retry };
    this.log = opts.log ?? silentLog;
    this.userAgent = opts.userAgent ?? 'WorkspaceSync/0.1';
    this.tokens = opts.tokens;
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.transfers = opts.transfers ?? processTransfers;
  }

  /** The absolute URL of a path relative to base_url (a base path prefix is kept). */
  url(path: string, query?: Record<string, QueryValue>): URL {
    const url = /^https?:\/\//i.test(path)
      ? new URL(path)
      : new URL(this.prefix + (path.startsWith('/') ? path : '/' + path), this.baseUrl.origin);
    if (url.origin !== this.baseUrl.origin) {
      throw new ProtocolError('url', '', 'points to another server');
    }
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value))
        for (const v of value) url.searchParams.append(`${key}[]`, String(v));
      else url.searchParams.set(key, String(value));
    }
    return url;
  }

  /** Sends a request; answers 2xx (and `accept`ed statuses); throws a typed ApiError otherwise. */
  async request(spec: RequestSpec): Promise<RawResponse> {
    const started = Date.now();
    let attempt = 0;
    let refreshes = 0;
    for (;;) {
      attempt++;
      const token = spec.auth === false ? null : (this.tokens?.accessToken() ?? null);
      let res: RawResponse;
      try {
        res = await this.once(spec, token);
      } catch (err) {
        if (spec.signal?.aborted) throw abortError(spec.signal);
        const last = err instanceof DeadlineError ? err : null;
        // undici's parser error often has no code: it is still not HTTP.
        const parser = err instanceof undiciErrors.HTTPParserError ? 'HPE_INVALID' : 'UNKNOWN';
        const code = errorCode(err) ?? parser;
        // Not the service speaking HTTP(S) (garbage, TLS to a plain port, a certificate): said
        // in words at once, as trying again would meet the same.
        const said = connectionWords(code, this.baseUrl.origin);
        if (said) throw new NetworkError(spec.endpoint, code, said);
        if (!NETWORK_CODES.has(code) && !(err instanceof undiciErrors.UndiciError)) throw err;
        const notSent = NOT_SENT_CODES.has(code);
        const idempotent = spec.idempotent ?? spec.method !== 'POST';
        this.log.debug('request failed', { endpoint: spec.endpoint, attempt, code });
        if (!idempotent && !notSent) throw new OutcomeUnknownError(spec.endpoint, code);
        const delay = this.nextDelay(attempt, started, null);
        if (delay === null) throw last ?? new NetworkError(spec.endpoint, code);
        await sleep(delay, spec.signal);
        continue;
      }
      const { status } = res;
      if ((status >= 200 && status < 300) || spec.accept?.includes(status)) {
        this.log.debug('request', { endpoint: spec.endpoint, status, attempt });
        return res;
      }
      // Sent with a token another request has renewed since (a refresh revokes the old one):
      // not a refusal of the sign-in, so it costs none of this request's refreshes. Counting it
      // failed requests that were only unlucky enough to be in flight during several renewals.
      const stale = token !== null && token !== this.tokens?.accessToken();
      if (
        status === 401 &&
        token !== null &&
        this.tokens?.canRefresh &&
        (stale || refreshes < MAX_REFRESHES)
      ) {
        await res.body.dump();
        if (!stale) refreshes++;
        this.log.debug('access token refused: refreshing', { endpoint: spec.endpoint });
        await this.tokens.refresh(token);
        attempt--; // a refresh is not a retry
        continue;
      }
      const idempotent = spec.idempotent ?? spec.method !== 'POST';
      const retryable =
        isRetryableStatus(status) && (idempotent || status === 429 || status === 503);
      if (retryable) {
        const after = retryAfterMs(res.headers, Date.now());
        await res.body.dump();
        const delay = this.nextDelay(attempt, started, after);
        this.log.debug('retrying', { endpoint: spec.endpoint, status, attempt, delay });
        if (delay !== null) {
          await sleep(delay, spec.signal);
          continue;
        }
        throw status === 429
          ? new RateLimitedError(spec.endpoint, after)
          : serverError(spec.endpoint, status, this.baseUrl);
      }
      throw await errorFor(
        spec.endpoint,
        res,
        token !== null && !this.tokens?.canRefresh,
        this.baseUrl,
      );
    }
  }

  /**
   * Sends a request and parses its JSON answer (undefined for an empty body). An answer past
   * `maxJsonBytes` is cut there, never gathered whole: an endless answer costs that much memory.
   */
  async requestJson(spec: RequestSpec): Promise<{ status: number; json: unknown }> {
    // An answer of a few pages' worth: a length it announces does not buy it more time.
    const res = await this.request({ expectBytes: 0, ...spec });
    const text = await readCapped(spec.endpoint, res, this.limits.maxJsonBytes);
    if (text.trim() === '') return { status: res.status, json: undefined };
    try {
      return { status: res.status, json: JSON.parse(text) as unknown };
    } catch {
      throw new ProtocolError(spec.endpoint, '', 'the answer is not JSON');
    }
  }

  /** The overall deadline of one attempt: a floor, plus the expected bytes at the slowest rate. */
  private deadlineFor(bytes = 0): number {
    const { deadlineMs, minBytesPerSecond } = this.limits;
    // setTimeout fires at once past 2^31-1 ms: a file of ~70 GB would otherwise fail at once.
    return Math.min(MAX_TIMER_MS, deadlineMs + (bytes / minBytesPerSecond) * 1000);
  }

  /** The delay before the next attempt, or null when the attempts or the time budget are spent. */
  private nextDelay(attempt: number, started: number, retryAfter: number | null): number | null {
    if (attempt >= this.policy.maxAttempts) return null;
    const delay = retryAfter ?? backoffDelay(attempt, this.policy);
    if (Date.now() - started + delay > this.policy.maxTotalMs) return null;
    return delay;
  }

  private async once(spec: RequestSpec, token: string | null): Promise<RawResponse> {
    const headers: Record<string, string> = {
      'user-agent': this.userAgent,
      accept: 'application/json',
      ...spec.headers,
    };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | Body | undefined;
    const held = spec.held ?? new HeldTime();
    if (spec.json !== undefined) {
      body = JSON.stringify(spec.json);
      headers['content-type'] = 'application/json';
    } else if (spec.form !== undefined) {
      body = new URLSearchParams(spec.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (spec.body) {
      const made = spec.body();
      body = this.transfers.up.chunks(made.body, held);
      Object.assign(headers, made.headers);
    }
    const url = this.url(spec.path, spec.query);
    // One signal for the caller's abort and the deadline; undici destroys a body still being
    // read with the deadline's error, so a reader of a trickling body gets it too.
    const controller = new AbortController();
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    // Time held back by the transfer limits (this attempt's) moves the deadline on by as much.
    const heldBefore = held.ms;
    const allowed = (ms: number) => ms + (held.ms - heldBefore) - (Date.now() - started);
    const arm = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(
        () => {
          if (allowed(ms) > 0) arm(ms);
          else controller.abort(new DeadlineError(spec.endpoint, ms));
        },
        Math.max(0, allowed(ms)),
      );
      timer.unref();
    };
    arm(this.deadlineFor(spec.expectBytes));
    const onAbort = () => controller.abort(abortError(spec.signal));
    if (spec.signal?.aborted) onAbort();
    if (spec.signal) allowListeners(spec.signal);
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
    };
    try {
      const res = await (spec.dispatcher ?? this.dispatcher ?? sharedDispatcher()).request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: spec.method,
        headers,
        body: body as string | Readable | undefined,
        signal: controller.signal,
      });
      // A body whose size the caller could not know (a folder's zip to save) is given the time
      // its announced length takes; what the caller expects is never stretched by the server.
      const length = Number(res.headers['content-length']);
      if (spec.expectBytes === undefined && Number.isFinite(length) && length > 0) {
        arm(this.deadlineFor(length));
      }
      res.body.once('close', done);
      return { status: res.statusCode, headers: res.headers, body: res.body };
    } catch (err) {
      done();
      throw proxyRefusal(err, url, spec.endpoint) ?? err;
    }
  }
}

export { redact };

/**
 * A pass's signal is shared by every request in flight (downloads, archives, uploads: more than
 * the default 10 listeners), each removing its listener when done. Without this Node printed a
 * "possible memory leak" warning into the user's terminal on a large sync.
 */
const SHARED_SIGNAL_LISTENERS = 256;
function allowListeners(signal: AbortSignal): void {
  if (getMaxListeners(signal) < SHARED_SIGNAL_LISTENERS) {
    setMaxListeners(SHARED_SIGNAL_LISTENERS, signal);
  }
}
