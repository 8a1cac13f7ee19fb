// An error answer of the service read into a typed error of errors.ts: its status, its error
// object (at the top level or inside a wrapped resource, read up to a bound), Retry-After.
import {
  type ApiError,
  ForbiddenError,
  NotAuthenticatedError,
  NotFoundError,
  RateLimitedError,
  RedirectError,
  ServerError,
  ValidationError,
  type FieldErrors,
} from './errors';
import { readCapped } from './bounds';
import { gatewayThroughProxy } from './proxy';
import type { RawResponse } from './request-types';

export function retryAfterMs(headers: RawResponse['headers'], now: number): number | null {
  const raw = headers['retry-after'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Reads the server's error object, at the top level or inside a wrapped resource. */
export function extractErrors(json: unknown): FieldErrors {
  const out: FieldErrors = {};
  const collect = (value: unknown) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return;
    for (const [field, messages] of Object.entries(value as Record<string, unknown>)) {
      const list = Array.isArray(messages) ? messages : [messages];
      const strings = list.filter((m): m is string => typeof m === 'string');
      if (strings.length > 0) out[field] = [...(out[field] ?? []), ...strings];
    }
  };
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const obj = json as Record<string, unknown>;
    if (typeof obj.error === 'string') {
      out.base = [typeof obj.error_description === 'string' ? obj.error_description : obj.error];
    }
    collect(obj.errors);
    for (const value of Object.values(obj)) {
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        collect((value as Record<string, unknown>).errors);
      }
    }
  }
  return out;
}

/** A 5xx answer; a gateway's through a proxy says the proxy may be the one in trouble. */
export function serverError(endpoint: string, status: number, origin: URL): ApiError {
  return gatewayThroughProxy(status, origin, endpoint) ?? new ServerError(endpoint, status);
}

/** An error answer is a few lines: one without end is not waited for. */
const MAX_ERROR_BYTES = 64 * 1024;

async function readErrorBody(endpoint: string, res: RawResponse): Promise<FieldErrors> {
  try {
    const text = await readCapped(endpoint, res, MAX_ERROR_BYTES);
    return text ? extractErrors(JSON.parse(text)) : {};
  } catch {
    return {};
  }
}

/**
 * The typed error an error answer means. `refreshSpent`: the token sent can no longer be
 * renewed, so a 401 says the person is signed out.
 */
export async function errorFor(
  endpoint: string,
  res: RawResponse,
  refreshSpent: boolean,
  baseUrl: URL,
): Promise<ApiError> {
  const errors = await readErrorBody(endpoint, res);
  const reason = errors.base?.join(', ') ?? Object.values(errors).flat().join(', ');
  switch (res.status) {
    case 401:
      return new NotAuthenticatedError(endpoint, refreshSpent);
    case 403:
      return new ForbiddenError(endpoint, reason);
    case 404:
    case 410:
      return new NotFoundError(endpoint);
    case 400:
    case 409:
    case 413:
    case 415:
    case 422:
      return new ValidationError(
        endpoint,
        Object.keys(errors).length ? errors : { base: [`HTTP ${res.status}`] },
      );
    case 429:
      return new RateLimitedError(endpoint, retryAfterMs(res.headers, Date.now()));
    default:
      if (res.status >= 300 && res.status < 400) {
        const location = res.headers.location;
        return new RedirectError(
          endpoint,
          res.status,
          Array.isArray(location) ? location[0] : location,
        );
      }
      return serverError(endpoint, res.status, baseUrl);
  }
}
