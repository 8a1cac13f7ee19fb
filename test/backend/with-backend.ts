import path from 'node:path';
import { expect } from 'vitest';
import type {
  AppError,
  MethodName,
  ParamsOf,
  ResultOf,
  SyncPairStatus,
} from '../../src/shared/app-api';
import { FileAccountStore } from '../../src/main/accounts/accounts';
import { AppBackend, type BackendOptions } from '../../src/main/backend/backend';
import type { ServiceClient } from '../../src/main/api/client';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import type { SeedKind, SeededUser } from '../../src/service/seed';
import { clientFor, tokenOf } from '../sync/harness';
import { tempDir } from '../cli/run-cli';
import { callOk, PairStatuses } from './backend-calls';

// The set-up the backend tests share: a real sandbox, a temporary folder, an AppBackend with its
// state in it, and (when asked) a user signed in through the backend and a pair syncing a folder
// of the temporary one. What differs between the tests is an option, not a copy of the set-up.

export interface BackendSetup {
  /** The sandbox's seed. */
  seed: SeedKind;
  /** The temporary folder's name prefix (the test's name). */
  prefix: string;
  /**
   * The email of the sandbox user signed in through `accounts.signIn`; default the
   * Administrator; null signs in nobody.
   */
  user?: string | null;
  /** The folder (under the temporary one) paired with the sandbox's workspace; none if absent. */
  pair?: string;
  /**
   * What the service holds before anyone signs in or syncs (uploads, seeded events): run once
   * the sandbox, the temporary folder and the user's client are there.
   */
  prepare?: (made: {
    sb: RunningSandbox;
    tmp: BackendWithSandbox['tmp'];
    client: ServiceClient;
  }) => Promise<void> | void;
  /**
   * Over the defaults: state in `<tmp>/state`, accounts in a file there, `env: {}`, the engines
   * polling every 100 ms. A function is given the temporary folder (for a home folder in it).
   */
  backend?: Partial<BackendOptions> | ((tmp: BackendWithSandbox['tmp']) => Partial<BackendOptions>);
}

export interface BackendWithSandbox {
  sb: RunningSandbox;
  tmp: { dir: string; remove(): Promise<void> };
  /** The backend's state directory (`<tmp>/state`): its journals and trash. */
  state: string;
  backend: AppBackend;
  /** The signed-in user (the Administrator when nobody is). */
  user: SeededUser;
  /** A service client with the user's token: what others do on the service, as them. */
  client: ServiceClient;
  /** The signed-in account's id; throws when the set-up signed in nobody. */
  readonly accountId: string;
  /** The pair's id and folder; throw when the set-up added no pair. */
  readonly pairId: string;
  readonly dir: string;
  /** The pair's pushed statuses, listened to from before `pairs.add`. */
  statuses: PairStatuses;
  /** `backend.call` that must succeed: its result. */
  ok<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  /** `backend.call` that must be refused: its error, whose message is one line. */
  refused(method: MethodName, params: unknown): Promise<AppError>;
  /** Resolves once the pair's pushed (or current) status passes `check`. */
  statusWhere(check: (s: SyncPairStatus) => boolean): Promise<SyncPairStatus>;
  /** Closes the backend and the sandbox, removes the temporary folder. */
  close(): Promise<void>;
}

/** The sandbox, the backend and (as asked) a signed-in account and a pair; see BackendSetup. */
export async function backendWithSandbox(setup: BackendSetup): Promise<BackendWithSandbox> {
  const sb = await startSandbox({ seed: setup.seed });
  let tmp: BackendWithSandbox['tmp'] | null = null;
  let backend: AppBackend | null = null;
  // A set-up that fails half way leaves nothing running behind it.
  const close = async () => {
    await backend?.close();
    await sb.close();
    await tmp?.remove();
  };
  try {
    tmp = await tempDir(setup.prefix);
    const state = path.join(tmp.dir, 'state');
    const b = new AppBackend({
      stateDir: state,
      accounts: FileAccountStore.inStateDir(state),
      pollIntervalMs: 100,
      env: {},
      ...(typeof setup.backend === 'function' ? setup.backend(tmp) : setup.backend),
    });
    backend = b;
    let accountId: string | null = null;
    let pair: { id: string; dir: string } | null = null;
    const statuses = new PairStatuses(b, () => pair?.id);
    const ok = <M extends MethodName>(method: M, params: ParamsOf<M>) => callOk(b, method, params);

    const email = setup.user ?? null;
    const user =
      email === null
        ? sb.users.find((u) => u.role === 'Administrator')
        : sb.users.find((u) => u.email === email);
    if (!user) throw new Error(`the sandbox has no user ${email ?? 'Administrator'}`);
    const client = clientFor(sb.baseUrl, tokenOf(user));
    await setup.prepare?.({ sb, tmp, client });
    if (setup.user !== null) {
      const { id } = await ok('accounts.signIn', {
        server: sb.baseUrl,
        email: user.email,
        password: user.password,
      });
      accountId = id;
    }
    if (setup.pair !== undefined) {
      if (accountId === null) throw new Error('a pair needs a signed-in user');
      const dir = path.join(tmp.dir, setup.pair);
      const { id } = await ok('pairs.add', { accountId, workspaceId: sb.workspaceId, dir });
      pair = { id, dir };
    }
    const needed = <T>(value: T | null, what: string): T => {
      if (value === null) throw new Error(`this set-up has no ${what}`);
      return value;
    };

    return {
      sb,
      tmp,
      state,
      backend: b,
      user,
      client,
      get accountId() {
        return needed(accountId, 'signed-in account');
      },
      get pairId() {
        return needed(pair, 'pair').id;
      },
      get dir() {
        return needed(pair, 'pair').dir;
      },
      statuses,
      ok,
      async refused(method, params) {
        const reply = await b.call(method, params);
        if (reply.ok) throw new Error(`${method} succeeded: ${JSON.stringify(reply.result)}`);
        expect(reply.error.message).not.toMatch(/\n/);
        return reply.error;
      },
      statusWhere: (check) => statuses.where(check),
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}
