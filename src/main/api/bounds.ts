import { errors as undiciErrors, type Dispatcher } from 'undici';
import { ApiError, NetworkError, ProtocolError } from './errors';

// What bounds one request against a server that never stops or never finishes: the limits,
// the deadline's error, and a JSON answer read up to its cap.

/**
 * What one request may cost at most. The dispatcher's timeouts are idle timeouts: a server
 * sending a byte every 20 s never trips them, so every request also has an overall deadline
 * (headers and body), and a JSON answer a size past which it is refused unread.
 */
export interface TransportLimits {
  /** Every request, its body included, ends within this (a download gets more, by size). */
  deadlineMs: number;
  /** The slowest rate a download's deadline allows for its expected bytes. */
  minBytesPerSecond: number;
  /** The largest JSON answer read (a listing page, an event page). */
  maxJsonBytes: number;
}

export const DEFAULT_LIMITS: TransportLimits = {
  deadlineMs: 120_000,
  minBytesPerSecond: 32 * 1024,
  maxJsonBytes: 32 * 1024 * 1024,
};

/**
 * A request past its overall deadline: a network failure (retried per policy, the pass then
 * offline) that says what happened instead of a connection code.
 */
export class DeadlineError extends NetworkError {
  constructor(endpoint: string, ms: number) {
    super(endpoint, DEADLINE_CODE, {
      key: 'service.deadline',
      params: { endpoint, seconds: seconds(ms) },
    });
  }
}
export const DEADLINE_CODE = 'WSYNC_DEADLINE';
const seconds = (ms: number) =>
  ms < 10_000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000));

/** The error code of a failure, or of its cause (undici wraps the socket's). */
export function errorCode(err: unknown): string | null {
  if (typeof err !== 'object' || err === null) return null;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const cause = (err as { cause?: unknown }).cause;
  return cause ? errorCode(cause) : null;
}

/** A body read whole up to `cap` bytes: past that it is cut, never gathered (an endless answer). */
export async function readCapped(
  endpoint: string,
  res: {
    headers: Record<string, string | string[] | undefined>;
    body: Dispatcher.ResponseData['body'];
  },
  cap: number,
): Promise<string> {
  const tooBig = () =>
    new ProtocolError(endpoint, '', `is larger than ${Math.round(cap / 1024 / 1024)} MB`);
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > cap) {
    res.body.destroy();
    throw tooBig();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > cap) throw tooBig();
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    res.body.destroy();
    if (err instanceof ApiError) throw err;
    // A body HTTP does not allow (a chunk size that is not one): the server was reached, and
    // "cannot reach the service" would not be true.
    if (err instanceof undiciErrors.HTTPParserError)
      throw new NetworkError(endpoint, errorCode(err) ?? 'HPE', { key: 'service.notHttpBody' });
    // Cut off mid-answer (a reset, the idle timeout): the connection's failure, not a shape.
    throw new NetworkError(endpoint, errorCode(err) ?? 'UNKNOWN');
  }
  return Buffer.concat(chunks).toString('utf8');
}
