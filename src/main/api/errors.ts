/**
 * Typed errors of the service client. Each has a `kind` to switch on and a message a person can
 * act on. None of them ever holds a token, a password or a request's headers: they are built
 * from our own words and the server's `errors` object only, and pass through `redact` (below)
 * in case a server echoes a secret back.
 */
import { englishOf, type Words } from '../../shared/i18n';
import { WordedError } from '../../shared/worded-error';

export type ApiErrorKind =
  | 'not-authenticated'
  | 'forbidden'
  | 'not-found'
  | 'validation'
  | 'rate-limited'
  | 'server'
  | 'network'
  | 'outcome-unknown'
  | 'protocol'
  | 'insecure'
  | 'proxy';

/** The server's `{"errors": {"field": ["message"]}}`, flattened. */
export type FieldErrors = Record<string, string[]>;

export abstract class ApiError extends WordedError {
  abstract readonly kind: ApiErrorKind;
  /** The operation, e.g. "GET /folders/:id" (a route template: no ids, no query). */
  readonly endpoint: string;
  /** Whether trying the same request again later may succeed. */
  readonly retryable: boolean;

  constructor(endpoint: string, message: string | Words, retryable: boolean) {
    super(typeof message === 'string' ? message : redactWords(message));
    // A secret a server echoed is never said: in the words' parameters (above), and in the
    // English as built, once more (a text of our own around them could complete a pattern).
    this.message = redact(this.message);
    this.endpoint = endpoint;
    this.retryable = retryable;
    this.name = new.target.name;
  }
}

export class NotAuthenticatedError extends ApiError {
  readonly kind = 'not-authenticated';
  /** True when the refresh token could not cure it: the user must sign in again. */
  readonly signedOut: boolean;
  /** `detail`: the server's error code (its text), or our words for what went wrong. */
  constructor(endpoint: string, signedOut: boolean, detail?: string | Words) {
    super(
      endpoint,
      signedOut
        ? { key: 'engine.signedOut' }
        : detail
          ? { key: 'service.signInRefusedWhy', params: { detail } }
          : { key: 'service.signInRefused' },
      false,
    );
    this.signedOut = signedOut;
  }
}

export class ForbiddenError extends ApiError {
  readonly kind = 'forbidden';
  constructor(
    endpoint: string,
    readonly reason: string,
  ) {
    super(
      endpoint,
      // The server's reason, as it wrote it; ours when it gave none.
      reason ? { key: 'service.forbidden', params: { reason } } : { key: 'service.forbiddenRole' },
      false,
    );
  }
}

export class NotFoundError extends ApiError {
  readonly kind = 'not-found';
  constructor(endpoint: string) {
    super(endpoint, { key: 'service.notFound', params: { endpoint } }, false);
  }
}

export class ValidationError extends ApiError {
  readonly kind = 'validation';
  constructor(
    endpoint: string,
    readonly errors: FieldErrors,
  ) {
    super(
      endpoint,
      { key: 'service.validation', params: { errors: describedErrors(errors) } },
      false,
    );
  }
}

export class RateLimitedError extends ApiError {
  readonly kind = 'rate-limited';
  constructor(
    endpoint: string,
    readonly retryAfterMs: number | null,
  ) {
    super(endpoint, { key: 'service.rateLimited' }, true);
  }
}

export class ServerError extends ApiError {
  readonly kind = 'server';
  constructor(
    endpoint: string,
    readonly status: number,
  ) {
    super(endpoint, { key: 'service.server', params: { status } }, status >= 500);
  }
}

export class NetworkError extends ApiError {
  readonly kind = 'network';
  constructor(
    endpoint: string,
    readonly code: string,
    /** What happened, when more is known than the code (a deadline passed). */
    said: Words = { key: 'service.network', params: { code } },
  ) {
    super(endpoint, said, true);
  }
}

/**
 * A request that changes something (a POST) was sent, but no answer came back: it may or may
 * not have been applied. The caller must look before it tries again.
 */
export class OutcomeUnknownError extends ApiError {
  readonly kind = 'outcome-unknown';
  constructor(
    endpoint: string,
    readonly code: string,
  ) {
    super(endpoint, { key: 'service.outcomeUnknown', params: { code } }, false);
  }
}

/** The answer does not have the shape the contract promises. */
export class ProtocolError extends ApiError {
  readonly kind = 'protocol';
  constructor(
    endpoint: string,
    readonly field: string,
    problem: string,
  ) {
    // The contract's field and what is wrong with it: a developer's detail, said as written.
    const detail = `${field ? `${field} ` : ''}${problem}`;
    super(endpoint, { key: 'service.protocol', params: { endpoint, detail } }, false);
  }
}

/**
 * The server answered with a redirect (3xx) where the contract has none: the address is usually
 * a web page or a sign-in portal, not the API. Said as a redirect, not as the service's trouble.
 */
export class RedirectError extends ApiError {
  readonly kind = 'protocol';
  constructor(
    endpoint: string,
    readonly status: number,
    location: string | undefined,
  ) {
    super(endpoint, { key: 'service.redirect', params: { to: redirectTarget(location) } }, false);
  }
}

/**
 * Where a redirect points, for a sentence: its origin and path, without the query or fragment
 * (a sign-in portal's may hold a ticket) and cut to a readable length.
 */
function redirectTarget(location: string | undefined): string {
  if (!location) return '?';
  let text = location;
  try {
    const url = new URL(location);
    text = `${url.origin}${url.pathname}`;
  } catch {
    text = location.split(/[?#]/)[0] ?? '';
  }
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** TLS codes that say the server's certificate is not one this computer trusts. */
const CERT_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * Words for a connection that reached something that is not the service speaking HTTP(S): the
 * HTTP parser's HPE_* errors (garbage, another protocol), OpenSSL's (TLS to a plain-HTTP port,
 * an untrusted certificate). Their own text (`0A00010B:SSL routines…`) says nothing to a person.
 * Undefined for any other failure.
 */
export function connectionWords(code: string, server: string): Words | undefined {
  if (code.startsWith('HPE_')) return { key: 'service.notHttp', params: { server } };
  if (CERT_CODES.has(code)) return { key: 'service.certificate', params: { server, code } };
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG')
    return { key: 'service.notTls', params: { server } };
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_'))
    return { key: 'service.tls', params: { server, code } };
  return undefined;
}

/** Credentials would travel in clear text to a non-loopback host. */
export class InsecureConnectionError extends ApiError {
  readonly kind = 'insecure';
  constructor(endpoint: string) {
    super(endpoint, { key: 'service.insecure' }, false);
  }
}

export function describeErrors(errors: FieldErrors): string {
  return englishOf(describedErrors(errors));
}

/** The server's field errors as it wrote them (its language), or our words when it gave none. */
export function describedErrors(errors: FieldErrors): string | Words {
  const parts = Object.entries(errors).map(([field, messages]) =>
    field === 'base' ? messages.join(', ') : `${field} ${messages.join(', ')}`,
  );
  return parts.length > 0 ? parts.join('; ') : { key: 'service.noReason' };
}

// Secrets currently in use (access and refresh tokens, passwords, client secrets). Every
// message of every ApiError, and every log line, is scrubbed of them.
const secrets = new Set<string>();

/** Registers a value that must never appear in an error or a log line. */
export function registerSecret(value: string | null | undefined): void {
  if (value && value.length >= 6) secrets.add(value);
}

export function forgetSecret(value: string | null | undefined): void {
  if (value) secrets.delete(value);
}

/** Words with each text parameter redacted: the server's reason may echo a secret back too. */
function redactWords(words: Words): Words {
  if (!words.params) return words;
  const params: Record<string, string | number | Words> = {};
  for (const [name, value] of Object.entries(words.params))
    params[name] =
      typeof value === 'string'
        ? redact(value)
        : typeof value === 'number'
          ? value
          : redactWords(value);
  return { key: words.key, params };
}

export function redact(text: string): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join('[redacted]');
  return out.replace(/\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]+=*/gi, '$1 [redacted]');
}
