import type { MethodName, ParamsOf, ResultOf, SyncPairStatus } from '../../src/shared/app-api';
import type { AppBackend, PushMessage } from '../../src/main/backend/backend';

// What the backend tests share: a call that must succeed, and one pair's pushed statuses waited on.

/** `backend.call` that must succeed: its result, else an error naming the method and why. */
export async function callOk<M extends MethodName>(
  backend: AppBackend,
  method: M,
  params: ParamsOf<M>,
): Promise<ResultOf<M>> {
  const reply = await backend.call(method, params);
  if (!reply.ok) throw new Error(`${method} failed: ${reply.error.kind}: ${reply.error.message}`);
  return reply.result as ResultOf<M>;
}

/** The statuses the backend pushes for one pair (its id read at each push: known after pairs.add). */
export class PairStatuses {
  latest: SyncPairStatus | null = null;
  private readonly watchers = new Set<() => void>();

  constructor(backend: AppBackend, pairId: () => string | undefined) {
    backend.on((p: PushMessage) => {
      if (p.event !== 'pair-status' || p.data.pairId !== pairId()) return;
      this.latest = p.data.status;
      for (const w of [...this.watchers]) w();
    });
  }

  /** Resolves once a pushed status (or the current one) passes `check`. */
  where(check: (s: SyncPairStatus) => boolean): Promise<SyncPairStatus> {
    return new Promise((resolve) => {
      const look = () => {
        if (!this.latest || !check(this.latest)) return false;
        this.watchers.delete(on);
        resolve(this.latest);
        return true;
      };
      const on = () => void look();
      if (!look()) this.watchers.add(on);
    });
  }
}
