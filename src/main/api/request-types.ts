// What a request to the service is, as the transport takes it, and what comes back.
import type { Dispatcher } from 'undici';
import type { Readable } from 'node:stream';
import type { HeldTime } from './throttle';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
export type QueryValue =
  string | number | boolean | null | undefined | readonly (string | number)[];

export interface RequestSpec {
  method: Method;
  /** Path relative to base_url, e.g. `/folders/12`; or an absolute URL on the same origin. */
  path: string;
  /** The route template for errors and logs, e.g. `GET /folders/:id` (no ids, no secrets). */
  endpoint: string;
  query?: Record<string, QueryValue>;
  /** Sent as JSON (also on a GET: the events filters travel that way). */
  json?: unknown;
  /** Sent form-encoded (the OAuth token endpoint). */
  form?: Record<string, string>;
  /** A streamed body, made anew for each attempt (uploads). */
  body?: () => { body: Body; headers: Record<string, string> };
  headers?: Record<string, string>;
  /**
   * Whether sending it twice does no harm (default: every method but POST). Decides whether a
   * request whose connection broke after it was sent is retried or fails as outcome-unknown.
   */
  idempotent?: boolean;
  /** Whether to send the bearer token (default true). */
  auth?: boolean;
  /** Statuses the caller wants back as answers instead of errors (e.g. 404 for capability checks). */
  accept?: readonly number[];
  signal?: AbortSignal;
  /** Use this dispatcher for this request (downloads use a resuming one). */
  dispatcher?: Dispatcher;
  /**
   * The body size the caller expects (a download's listed size): its deadline grows by the time
   * that takes at the slowest rate allowed, so a big file is not cut for being big.
   */
  expectBytes?: number;
  /**
   * Where the time this request's body waits for the transfer limits is added up: the
   * deadline does not count it (a throttled body is slow on purpose). A download passes one
   * that its throttled body adds to; an upload's `body` is throttled here, with one of its own.
   */
  held?: HeldTime;
}

/**
 * A streamed request body: a stream, or chunks as an async iterable, which undici writes one at
 * a time as the socket takes them (its typings name only streams; it takes iterables alike).
 */
export type Body = Readable | AsyncIterable<Uint8Array>;

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
}

/** Supplies and renews the access token (see session.ts). */
export interface TokenSource {
  accessToken(): string | null;
  /** Gets a new access token; throws NotAuthenticatedError(signedOut) when it cannot. */
  refresh(failedToken: string | null): Promise<void>;
  readonly canRefresh: boolean;
}

export interface LogSink {
  debug(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}
