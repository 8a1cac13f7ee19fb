import type { Statement } from 'better-sqlite3';
import type { Db } from './schema';

/**
 * What every repository of the journal shares: the journal's one connection (so a transaction
 * spans repositories) and its statements, prepared once by name.
 */
export abstract class Repository {
  protected readonly s: Record<string, Statement<unknown[]>>;

  constructor(
    protected readonly db: Db,
    sql: Record<string, string>,
  ) {
    this.s = Object.fromEntries(
      Object.entries(sql).map(([name, text]) => [name, db.prepare<unknown[]>(text)]),
    );
  }

  /** The SQL of each statement, by name: the query-plan test checks every one. */
  statementSql(): Record<string, string> {
    return Object.fromEntries(Object.entries(this.s).map(([name, st]) => [name, st.source]));
  }
}

/** Runs `fn` in one transaction (nested calls join the outer one). */
export function transaction<T>(db: Db, fn: () => T): T {
  return db.inTransaction ? fn() : db.transaction(fn)();
}

/** Commits what a `batch` has written so far and goes on in a new transaction. */
export function commitNow(db: Db): void {
  if (!db.inTransaction) return;
  db.exec('COMMIT');
  db.exec('BEGIN');
}
