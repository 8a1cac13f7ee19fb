/** How hard the client tries before it gives up on one request. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** No retry starts later than this after the first attempt. */
  maxTotalMs: number;
  /** The first backoff; each further one doubles, up to maxDelayMs, with full jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** The random source for jitter (tests may fix it). */
  random: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 6,
  maxTotalMs: 60_000,
  baseDelayMs: 100,
  maxDelayMs: 5_000,
  random: Math.random,
};

/** Statuses that say "try again later": rate limited, or the server or a gateway in trouble. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504;
}

/**
 * Exponential backoff with "full jitter" (a uniform delay between half the cap and the cap),
 * so that many clients failing together do not come back together.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(cap / 2 + (policy.random() * cap) / 2);
}
