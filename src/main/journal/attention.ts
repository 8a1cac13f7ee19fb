import type { Statement } from 'better-sqlite3';
import type { WireWords } from '../../shared/i18n';
import type { Db } from './schema';
import { parseWords, wordsColumn } from './words';

/** A conflict kept for the person: the original at `path`, the local version kept at `copy`. */
export interface StoredConflict {
  id: number;
  path: string;
  copy: string;
  message: string;
  /** The message as data (schema part 9); absent for older rows. */
  words?: WireWords;
  at: number;
  /** The copy's identity, size and time when it was made ('' when it could not be read). */
  copyFacts: string;
}

/**
 * The journal's record of what needs the person (schema part 7): conflicts with a copy, and the
 * problems they dismissed. Apart from `Journal` so the engine's hot paths stay as they are; it
 * shares the journal's connection (and so its transactions).
 */
export class AttentionTable {
  private readonly s: Record<string, Statement<unknown[]>>;

  constructor(db: Db) {
    const p = (sql: string) => db.prepare<unknown[]>(sql);
    this.s = {
      add: p(`INSERT INTO conflicts (path, copy, message, at, copy_facts, words)
        VALUES (?, ?, ?, ?, ?, ?)`),
      // A copy made again at the same place (a second conflict) replaces the older entry.
      delCopy: p(`DELETE FROM conflicts WHERE copy = ?`),
      del: p(`DELETE FROM conflicts WHERE id = ?`),
      get: p(`SELECT * FROM conflicts WHERE id = ?`),
      all: p(`SELECT * FROM conflicts ORDER BY at, id`),
      dismiss: p(`INSERT INTO dismissed_problems (key, message) VALUES (?, ?)
        ON CONFLICT (key) DO UPDATE SET message = excluded.message`),
      dismissed: p(`SELECT key, message FROM dismissed_problems`),
    };
  }

  addConflict(c: Omit<StoredConflict, 'id'>): StoredConflict {
    this.s.delCopy!.run(c.copy);
    const id = Number(
      this.s.add!.run(c.path, c.copy, c.message, c.at, c.copyFacts, wordsColumn(c.words))
        .lastInsertRowid,
    );
    return { id, ...c };
  }

  /** Says whether there was one. */
  removeConflict(id: number): boolean {
    return this.s.del!.run(id).changes > 0;
  }

  conflict(id: number): StoredConflict | undefined {
    const r = this.s.get!.get(id) as Row | undefined;
    return r && conflictOf(r);
  }

  conflicts(): StoredConflict[] {
    return (this.s.all!.all() as Row[]).map(conflictOf);
  }

  /** Hides a problem while its message stays this one. */
  dismissProblem(key: string, message: string): void {
    this.s.dismiss!.run(key, message);
  }

  /** Dismissed problems: key → the message dismissed. */
  dismissedProblems(): Map<string, string> {
    const rows = this.s.dismissed!.all() as { key: string; message: string }[];
    return new Map(rows.map((r) => [r.key, r.message]));
  }
}

interface Row {
  id: number;
  path: string;
  copy: string;
  message: string;
  at: number;
  copy_facts: string | null;
  words: string | null;
}

const conflictOf = (r: Row): StoredConflict => {
  const words = parseWords(r.words);
  return {
    id: r.id,
    path: r.path,
    copy: r.copy,
    message: r.message,
    ...(words ? { words } : {}),
    at: r.at,
    copyFacts: r.copy_facts ?? '',
  };
};
