import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DownloadsRepo } from './downloads';
import { FeedRepo } from './feed';
import { ItemsRepo } from './items';
import { KeptNamesRepo } from './kept-names';
import { MetaRepo } from './meta';
import { OnDemandRepo } from './on-demand';
import { OutboxRepo } from './outbox';
import { ProblemsRepo } from './problems';
import { commitNow, transaction, type Repository } from './repository';
import { openDatabase, type Db } from './schema';
import { SelectionRepo } from './selection';
import { WalkRepo } from './walk';

// The journal's vocabulary, where the engine has always found it (each type lives with its table).
export type { PendingDownload } from './downloads';
export type { FeedWindow } from './feed';
export { TREE_CHUNK, type ChildFacts, type ItemState, type JournalItem } from './items';
export { arrivesOnline, type OnDemandMode } from './on-demand';
export type { Intent } from './outbox';
export type { StoredConflict, StoredProblem } from './problems';
export type { ExcludedFolder } from './selection';
export type { RemoteItem } from './walk';

/** Which sync pair a journal belongs to: one journal per (server, user, workspace, folder). */
export interface JournalKey {
  server: string;
  /** The account (email) when known; '' for a pasted token. */
  user: string;
  workspaceId: number;
  /** The local folder, absolute and resolved. */
  root: string;
}

/** Where the journal of a sync pair lives: in the state directory, never in the synced folder. */
export function journalFile(stateDir: string, key: JournalKey): string {
  const id = createHash('sha256')
    .update(JSON.stringify([key.server.replace(/\/+$/, ''), key.user, key.workspaceId, key.root]))
    .digest('hex')
    .slice(0, 24);
  return path.join(stateDir, 'journals', `${id}.db`);
}

/**
 * The sync journal: one SQLite file per sync pair, one repository per concern over its one
 * connection (so a transaction spans them): the synced tree (`items`), a walk's staging (`walk`),
 * the outbox of intents, the remote feed's window (`feed`), problems and conflicts, downloads in
 * progress, kept service names, the selection, files on demand and the pair's settings (`meta`). All of the
 * engine's SQL is in these repositories.
 */
export class Journal {
  readonly db: Db;
  readonly meta: MetaRepo;
  readonly items: ItemsRepo;
  readonly walk: WalkRepo;
  readonly feed: FeedRepo;
  readonly outbox: OutboxRepo;
  readonly problems: ProblemsRepo;
  readonly downloads: DownloadsRepo;
  readonly keptNames: KeptNamesRepo;
  readonly selection: SelectionRepo;
  readonly onDemand: OnDemandRepo;

  /**
   * `fold` maps a local path to the key under which the volume compares names (lower case on a
   * case-insensitive volume, NFC where normalization does not count); identity by default.
   */
  constructor(file: string, opts: { fold?: (p: string) => string } = {}) {
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    this.db = openDatabase(file);
    const fold = opts.fold ?? ((p: string) => p);
    this.meta = new MetaRepo(this.db);
    this.problems = new ProblemsRepo(this.db, fold);
    this.items = new ItemsRepo(this.db, fold, this.problems);
    this.walk = new WalkRepo(this.db);
    this.feed = new FeedRepo(this.db, this.meta);
    this.outbox = new OutboxRepo(this.db);
    this.downloads = new DownloadsRepo(this.db);
    this.keptNames = new KeptNamesRepo(this.db);
    this.selection = new SelectionRepo(this.db);
    this.onDemand = new OnDemandRepo(this.db, this.meta);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /**
   * The SQL of every statement the repositories prepared, as `repository.name`: the query-plan
   * test runs `EXPLAIN QUERY PLAN` on each, so a statement added is checked without a list.
   */
  statementSql(): Record<string, string> {
    const repos: Record<string, Repository> = {
      meta: this.meta,
      items: this.items,
      walk: this.walk,
      feed: this.feed,
      outbox: this.outbox,
      problems: this.problems,
      downloads: this.downloads,
      keptNames: this.keptNames,
      selection: this.selection,
      onDemand: this.onDemand,
    };
    return Object.fromEntries(
      Object.entries(repos).flatMap(([repo, r]) =>
        Object.entries(r.statementSql()).map(([name, sql]) => [`${repo}.${name}`, sql]),
      ),
    );
  }

  /**
   * Runs async work with its journal writes grouped into transactions committed every
   * `everyMs` (and at the end, whatever happens): one commit per row would cost tens of
   * microseconds each on a large mirror. A crash loses at most the last group, which only
   * means the next run looks at those items again (and adopts what is already on disk).
   */
  async batch<T>(work: () => Promise<T>, everyMs = 200): Promise<T> {
    if (this.db.inTransaction) return work();
    this.db.exec('BEGIN');
    const timer = setInterval(() => {
      if (!this.db.inTransaction) return;
      this.db.exec('COMMIT');
      this.db.exec('BEGIN');
    }, everyMs);
    try {
      return await work();
    } finally {
      clearInterval(timer);
      if (this.db.inTransaction) this.db.exec('COMMIT');
    }
  }

  /** Runs `fn` in one transaction (nested calls join the outer one), across repositories. */
  transaction<T>(fn: () => T): T {
    return transaction(this.db, fn);
  }

  /** Commits what a `batch` has written so far and goes on in a new transaction. */
  commitNow(): void {
    commitNow(this.db);
  }
}
