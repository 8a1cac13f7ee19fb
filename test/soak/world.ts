import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ServiceClient } from '../../src/main/api/client';
import { Moves } from '../../src/main/api/moves';
import { signInWithPassword } from '../../src/main/api/oauth';
import type { OutboxStep, IntentPayload } from '../../src/main/sync/up/outbox';
import type { VolumeProfile } from '../../src/main/sync/names';
import { LocalRoot } from '../../src/main/sync/local';
import { openSync, type OpenSync } from '../../src/main/sync/loop/open';
import { CACHE_DIR } from '../../src/main/sync/paths';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import type { RoleName } from '../../src/service/roles';
import type { SeededUser } from '../../src/service/seed';
import type { SyncSummary } from '../../src/shared/sync-status';
import type { Language } from '../../src/shared/i18n';
import { TempDirs, clientFor, pastPathMax, sha, tokenOf } from '../sync/harness';
import { Ledger } from './ledger';
import type { Logger } from '../../src/main/sync/ports';

export interface CrashPlan {
  step: OutboxStep;
  op: IntentPayload['op'];
  /** The nth time the step is reached for this op in the sync. */
  nth: number;
}

export type FaultKind = 'fail' | 'lost' | 'reset' | 'latency' | 'ratelimit' | 'expire';

export interface FaultWindow {
  kind: FaultKind;
  /** A fraction for the rate faults; milliseconds for latency; requests a second for ratelimit. */
  level: number;
  seed: number;
}

/**
 * Ways to break the engine on purpose, to show what the soak catches: intents left open by a
 * crash never looked at again; a download that takes changed local work for the synced version.
 */
export type Sabotage = 'none' | 'no-intent-check' | 'no-conflict-check';

export interface WorldConfig {
  extensions: boolean;
  /** Client B's name rules (client A is always the plain Linux volume it runs on). */
  profileB: VolumeProfile;
  sabotage: Sabotage;
  log: boolean;
}

/** Thrown from the outbox hook: the engine is dead from here on (its journal closed under it). */
export class SimulatedCrash extends Error {
  constructor() {
    super('simulated crash');
  }
}

/** The engine's safety-net walk interval (its default: the soak does not set it). */
export const FULL_WALK_MS = 10 * 60_000;

export interface Figures {
  histories: number;
  operations: number;
  crashes: number;
  faults: number;
  conflicts: number;
  /** Folders a client left out (selective sync), each synced at once and checked. */
  selections: number;
  /** Files-on-demand actions run (download, free, pin, unpin; issue 41). */
  onDemand: number;
  /** A person's acts on a placeholder of ours: moved, deleted, written into (issue 41). */
  placeholders: number;
  /**
   * Deletions on the service that took everything a client held, which the guard asks about
   * (as Nextcloud does when every file would go): the person, who saw it done, says yes.
   */
  asked: number;
}

/** One sync client: a folder, a state directory, an account and, while running, an engine. */
export class SoakClient {
  pair: OpenSync | null = null;
  crash: CrashPlan | null = null;
  private reached = 0;
  conflicts = 0;
  /** What the last `sync` gave (a written history's checks look at it). */
  last: SyncSummary | Error | null = null;
  /** The engine's clock runs this far ahead of real time (its walk schedule follows it). */
  private aheadMs = 0;

  constructor(
    readonly name: 'A' | 'B',
    readonly user: SeededUser,
    readonly role: RoleName,
    readonly service: ServiceClient,
    readonly dir: string,
    readonly state: string,
    readonly profile: VolumeProfile,
    private readonly world: World,
    /** The words of its conflict copies. */
    readonly language: Language = 'en',
  ) {}

  /** The engine as a restart finds it: a fresh instance on the same journal. */
  async open(): Promise<OpenSync> {
    if (this.pair) return this.pair;
    const pair = await openSync({
      client: this.service,
      server: this.world.sb.baseUrl,
      user: this.user.email,
      workspaceId: this.world.sb.workspaceId,
      dir: this.dir,
      stateDir: this.state,
      profile: this.profile,
      language: this.language,
      concurrency: 1,
      log: this.world.config.log ? this.world.logger(this.name) : undefined,
      tuning: {
        writeQuietMs: 0,
        confirmDeletes: true,
        watch: false,
        outboxStep: (step, op) => this.step(step, op),
        now: () => Date.now() + this.aheadMs,
      },
    });
    if (this.world.config.sabotage === 'no-intent-check') {
      // The broken engine: intents left open by a crash are never looked at again.
      pair.journal.outbox.open = () => [];
    }
    this.pair = pair;
    return pair;
  }

  private step(step: OutboxStep, op: IntentPayload['op']): void {
    const plan = this.crash;
    if (!plan || plan.step !== step || plan.op !== op || ++this.reached < plan.nth) return;
    // Nothing the dying engine does from here may reach its journal, as after a SIGKILL.
    this.crash = null;
    this.pair?.journal.close();
    this.pair = null;
    this.world.figures.crashes++;
    throw new SimulatedCrash();
  }

  /** Time passes for this client: its safety-net walk (every 10 minutes) falls due. */
  tenMinutesPass(): void {
    this.aheadMs += FULL_WALK_MS;
  }

  /**
   * Whether this client's next sync starts with a full walk: asked for (the journal's
   * `walk_due`) or scheduled (its last walk a safety-net interval ago by the engine's clock).
   * Without a record of a last walk the answer is no: the caller has seen a sync succeed, and the
   * first one always walks.
   */
  walkDue(): boolean {
    const journal = this.pair?.journal;
    if (!journal) return true;
    if (journal.meta.get('walk_due') != null) return true;
    const last = Number(journal.meta.get('last_walk_ms') ?? NaN);
    return !Number.isNaN(last) && Date.now() + this.aheadMs - last >= FULL_WALK_MS;
  }

  /** One `syncOnce`; a crash or an error under faults ends it (the next sync carries on). */
  async sync(crash: CrashPlan | null = null): Promise<SyncSummary | Error> {
    const pair = await this.open();
    this.crash = crash;
    this.reached = 0;
    try {
      const summary = await pair.engine.syncOnce();
      this.conflicts += summary.conflicts;
      return (this.last = summary);
    } catch (err) {
      return (this.last = err instanceof Error ? err : new Error(String(err)));
    } finally {
      this.crash = null;
      if (!this.pair) await closeQuietly(pair);
    }
  }

  async close(): Promise<void> {
    const pair = this.pair;
    this.pair = null;
    if (pair) await closeQuietly(pair);
  }

  /** Every folder ('' for the top) and file on the disk, sorted, without the engine's cache. */
  entries(): { folders: string[]; files: string[] } {
    const folders = [''];
    const files: string[] = [];
    const visit = (rel: string) => {
      const dirents = readdirSync(path.join(this.dir, rel), { withFileTypes: true });
      for (const d of dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        const child = rel === '' ? d.name : `${rel}/${d.name}`;
        if (child === CACHE_DIR) continue;
        // Past PATH_MAX no step can name it (a folder moved into a deep one took it along).
        if (pastPathMax(path.join(this.dir, child))) continue;
        if (d.isDirectory()) {
          folders.push(child);
          visit(child);
        } else files.push(child);
      }
    };
    visit('');
    return { folders, files };
  }

  abs(rel: string): string {
    return path.join(this.dir, ...rel.split('/'));
  }
}

async function closeQuietly(pair: OpenSync): Promise<void> {
  try {
    await pair.close();
  } catch {
    // Closed already by a simulated crash.
  }
}

export interface RemoteEntry {
  id: number;
  kind: 'folder' | 'file';
  parentId: number;
  name: string;
  blob: string | null;
  size: number;
  path: string;
}

/** The sandbox, the other users' API client, the two sync clients and the ledger of one history. */
export class World {
  readonly ledger = new Ledger();
  /**
   * Names a person gave by renaming or moving an item here, folded as the service compares them:
   * a numbered name among them ("Café (2)", made by the engine, renamed by hand) is their choice.
   */
  readonly chosenNames = new Set<string>();
  /** Who gave each of those names (by the service's comparison key), last. */
  readonly namedBy = new Map<string, string>();
  /**
   * Who last put an item at a path by a move or rename here (service key of the whole path): one
   * name in two cases (`Docs`, `docs`) is one key above, but two places.
   */
  readonly placedBy = new Map<string, string>();
  readonly clients: SoakClient[] = [];
  /** Invariants a step found broken as it ran (an idle sync's requests): divergences at the end. */
  readonly broken: string[] = [];
  /** Contents a step found lost as it ran (freed with unsent changes): lost at the end. */
  readonly lostNow: string[] = [];
  /**
   * Contents written on purpose to several files at once (a swap of identical files): how many.
   * More files than that with one of them on the service is a duplicate all the same.
   */
  readonly twins = new Map<string, number>();
  /** Bulk changes made so far: each names its folders and files after its number. */
  bulks = 0;
  /** The engines' log, kept in memory: printing it as it comes slows the run and hides races. */
  readonly logLines: string[] = [];
  admin!: ServiceClient;
  moves!: Moves;
  rootId = 0;
  private restore: LocalRoot['unchanged'] | null = null;
  private constructor(
    readonly sb: RunningSandbox,
    readonly dirs: TempDirs,
    readonly base: string,
    readonly config: WorldConfig,
    readonly figures: Figures,
  ) {}

  logger(client: string): Logger {
    const line =
      (level: string) =>
      (message: string, fields?: Record<string, unknown>): void => {
        this.logLines.push(`${client} ${level} ${message} ${JSON.stringify(fields ?? {})}`);
      };
    return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
  }

  static async create(config: WorldConfig, figures: Figures): Promise<World> {
    const sb = await startSandbox({ seed: 'empty', extensions: config.extensions });
    const dirs = new TempDirs();
    const world = new World(sb, dirs, dirs.make('wsync-soak-'), config, figures);
    if (config.sabotage === 'no-conflict-check') {
      // The broken engine: whatever is on disk counts as the synced version (histories run one at
      // a time, so patching the class for the length of this world touches no other).
      world.restore = LocalRoot.prototype.unchanged;
      LocalRoot.prototype.unchanged = async () => true;
    }
    try {
      await world.setUp();
    } catch (err) {
      await world.dispose();
      throw err;
    }
    return world;
  }

  private async setUp(): Promise<void> {
    const { sb } = this;
    const admin = sb.users.find((u) => u.role === 'Administrator')!;
    this.admin = clientFor(sb.baseUrl, tokenOf(admin), { maxAttempts: 1 });
    this.moves = new Moves(this.admin);
    this.rootId = (await this.admin.rootFolder(sb.workspaceId)).id;
    // A's computer speaks English, B's German: B's conflict copies are named "Konfliktkopie",
    // and the model (invariants.ts) must know a copy in either language.
    const seats: ['A' | 'B', RoleName, VolumeProfile, Language][] = [
      [
        'A',
        'Collaborator',
        { flavor: 'posix', caseInsensitive: false, normalizationInsensitive: false },
        'en',
      ],
      ['B', 'Moderator', this.config.profileB, 'de'],
    ];
    for (const [name, role, profile, language] of seats) {
      const user = sb.users.find((u) => u.role === role)!;
      // Signed in with the password grant: an `expire` fault is then cured by the refresh token.
      const tokens = await signInWithPassword({
        baseUrl: sb.baseUrl,
        clientId: sb.clientId,
        clientSecret: sb.clientSecret,
        email: user.email,
        password: user.password,
      });
      const home = path.join(this.base, name);
      // The folder exists before the first sync: a person may put things in it first.
      mkdirSync(path.join(home, 'Workspace'), { recursive: true });
      this.clients.push(
        new SoakClient(
          name,
          user,
          role,
          clientFor(sb.baseUrl, tokens, { maxAttempts: 4, maxTotalMs: 1500 }),
          path.join(home, 'Workspace'),
          path.join(home, 'state'),
          profile,
          this,
          language,
        ),
      );
    }
  }

  /** Every live item of the workspace, parents before children, by id within a level. */
  remoteEntries(): RemoteEntry[] {
    const rows = this.sb.sandbox.db
      .prepare(
        `WITH RECURSIVE t(id, kind, parent_id, filename, blob, size, path, depth) AS (
           SELECT id, kind, parent_id, filename, blob, size, filename, 1 FROM items WHERE parent_id = ?
           UNION ALL SELECT i.id, i.kind, i.parent_id, i.filename, i.blob, i.size, t.path || '/' || i.filename, t.depth + 1
             FROM items i JOIN t ON i.parent_id = t.id WHERE t.kind = 'folder'
         ) SELECT id, kind, parent_id AS parentId, filename AS name, blob, size, path FROM t ORDER BY depth, id`,
      )
      .all(this.rootId) as RemoteEntry[];
    return rows;
  }

  /** The blob hashes of the files in a remote subtree (the item itself included). */
  remoteSubtreeBlobs(entry: RemoteEntry): string[] {
    if (entry.kind === 'file') return entry.blob ? [entry.blob] : [];
    return this.remoteEntries()
      .filter((e) => e.kind === 'file' && e.path.startsWith(entry.path + '/') && e.blob)
      .map((e) => e.blob!);
  }

  /** Turns on a fault window for the duration of `work`; the sandbox's seed makes it replayable. */
  async withFaults<T>(window: FaultWindow | null, work: () => Promise<T>): Promise<T> {
    if (!window) return work();
    const spec =
      window.kind === 'latency'
        ? `latency=0-${window.level}`
        : window.kind === 'ratelimit'
          ? `ratelimit=${window.level}`
          : `${window.kind}=${window.level}`;
    const before = this.injected();
    this.sb.setFaults(`${spec},seed=${window.seed}`);
    try {
      return await work();
    } finally {
      this.sb.setFaults('');
      this.figures.faults += this.injected() - before;
    }
  }

  /**
   * What the service was asked while `work` ran: request counts by route ("GET /activity"), from
   * the sandbox's own stats. Only what runs meanwhile counts, so nothing else may run.
   */
  async requestsDuring<T>(
    work: () => Promise<T>,
  ): Promise<{ result: T; made: Map<string, number> }> {
    const before = new Map(this.sb.sandbox.stats);
    const result = await work();
    const made = new Map<string, number>();
    for (const [route, count] of this.sb.sandbox.stats) {
      const delta = count - (before.get(route) ?? 0);
      if (delta > 0) made.set(route, delta);
    }
    return { result, made };
  }

  private injected(): number {
    const counts = this.sb.sandbox.faults.injected;
    return counts.fail + counts.lost + counts.reset + counts.ratelimit + counts.expire;
  }

  /** Another user (a Moderator) changes a client's role; null puts the client's own role back. */
  async setRole(client: SoakClient, role: RoleName | null): Promise<void> {
    const wanted = role ?? client.role;
    for await (const r of this.admin.listRolemaps(this.sb.workspaceId)) {
      if (r.user_id !== client.user.id && r.user?.email !== client.user.email) continue;
      if (r.role_name !== wanted) await this.admin.changeRole(r.id, wanted);
      return;
    }
  }

  /** The blob hash of a file on a client's disk (for the ledger). */
  hashOnDisk(client: SoakClient, rel: string): string | undefined {
    try {
      return sha(readFileSync(client.abs(rel)));
    } catch {
      return undefined;
    }
  }

  async dispose(): Promise<void> {
    if (this.restore) LocalRoot.prototype.unchanged = this.restore;
    for (const c of this.clients) await c.close();
    await this.sb.close();
    this.dirs.cleanup();
  }
}
