import { afterAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import { startSandbox } from '../../src/service/sandbox';
import { TempDirs, clientFor, openPair, requestsOf, tokenOf } from './harness';

// The regular full walk is a safety net behind the event feed: its interval counts from the end
// of the last walk. Counted from its start, a walk longer than the interval (a million entries
// take ~25 minutes) was followed at once by another one.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

describe('the scheduled full walk', () => {
  it('waits its interval after a walk that lasted longer than it', async () => {
    const sb = await startSandbox({ seed: 'demo' });
    try {
      const ann = sb.users.find((u) => u.role === 'Administrator')!;
      let clock = Date.now();
      const real = clientFor(sb.baseUrl, tokenOf(ann));
      // Each folder's listing takes a minute of the engine's clock.
      const client = new Proxy(real, {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver) as unknown;
          if (key !== 'folderContents' || typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            clock += 60_000;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      }) as ServiceClient;
      const pair = await openPair(
        { baseUrl: sb.baseUrl, workspaceId: sb.workspaceId },
        client,
        dirs,
        {
          fullWalkIntervalMs: 5 * 60_000,
          tuning: { now: () => clock },
        },
      );
      try {
        const first = await requestsOf(sb, () => pair.engine.syncOnce());
        const listings = (s: Record<string, number>) => s['GET /folders/:id'] ?? 0;
        // The demo's walk lists more folders than the interval has minutes.
        expect(listings(first)).toBeGreaterThan(5);
        const next = await requestsOf(sb, () => pair.engine.syncOnce());
        expect(listings(next)).toBe(0);
        // Once the interval has passed since the walk ended, the next pass walks again.
        clock += 5 * 60_000;
        const later = await requestsOf(sb, () => pair.engine.syncOnce());
        expect(listings(later)).toBeGreaterThan(5);
      } finally {
        await pair.close();
      }
    } finally {
      await sb.close();
    }
  });
});
