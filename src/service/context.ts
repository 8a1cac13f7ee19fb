import type { Clock } from './clock';
import type { Db, UserRow } from './db';
import type { BlobStore } from './blobs';
import type { FaultInjector } from './faults';

export interface SandboxConfig {
  /** Path prefix every route lives under, '' or like '/api/v1'. */
  basePath: string;
  /** Whether the move extensions (parent_id / folder_id on PUT) are honoured. */
  extensions: boolean;
  clientId: string;
  clientSecret: string;
  accessTokenTtlMs: number;
  maxUploadBytes: number;
  /** A refresh grant answers a new refresh token and retires the one it used (as many services do). */
  rotateRefreshTokens: boolean;
  /**
   * Every open link needs a password (as services that enforce link passwords do): a change
   * leaving a link on without one is a 422 on `password`. Settable at run time (a test hook).
   */
  linkPasswordRequired: boolean;
}

export interface Sandbox {
  readonly db: Db;
  readonly clock: Clock;
  readonly blobs: BlobStore;
  readonly faults: FaultInjector;
  readonly config: SandboxConfig;
  /** Key for signing shared-page password cookies. */
  readonly secret: Buffer;
  /** Request counts by "METHOD /route/template". */
  readonly stats: Map<string, number>;
}

export type User = UserRow;
