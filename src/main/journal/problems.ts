import type { WireWords } from '../../shared/i18n';
import { Repository } from './repository';
import type { Db } from './schema';
import { parseWords, wordsColumn } from './words';

/** An item that could not be synced, with the reason; cleared when it syncs. */
export interface StoredProblem {
  key: string;
  path: string;
  remoteId: number | null;
  reason: string;
  message: string;
  /** The message as data (schema part 9); absent for older rows and an error's own text. */
  words?: WireWords;
  at: number;
}

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

type ProblemRow = {
  key: string;
  path: string;
  remote_id: number | null;
  reason: string;
  message: string;
  at: number;
  words: string | null;
};

type ConflictRow = {
  id: number;
  path: string;
  copy: string;
  message: string;
  at: number;
  copy_facts: string | null;
  words: string | null;
};

const problemOf = (r: ProblemRow): StoredProblem => {
  const words = parseWords(r.words);
  return {
    key: r.key,
    path: r.path,
    remoteId: r.remote_id,
    reason: r.reason,
    message: r.message,
    ...(words ? { words } : {}),
    at: r.at,
  };
};

const conflictOf = (r: ConflictRow): StoredConflict => {
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

const SQL = {
  set: `INSERT INTO problems (key, path, remote_id, reason, message, at, words)
    VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET path = excluded.path,
    remote_id = excluded.remote_id, reason = excluded.reason, message = excluded.message,
    at = excluded.at, words = excluded.words`,
  del: `DELETE FROM problems WHERE key = ?`,
  all: `SELECT * FROM problems ORDER BY at`,
  conflictAdd: `INSERT INTO conflicts (path, copy, message, at, copy_facts, words)
    VALUES (?, ?, ?, ?, ?, ?)`,
  // A copy made again at the same place (a second conflict) replaces the older entry.
  conflictDelCopy: `DELETE FROM conflicts WHERE copy = ?`,
  conflictDel: `DELETE FROM conflicts WHERE id = ?`,
  conflictGet: `SELECT * FROM conflicts WHERE id = ?`,
  conflictsAll: `SELECT * FROM conflicts ORDER BY at, id`,
  dismiss: `INSERT INTO dismissed_problems (key, message) VALUES (?, ?)
    ON CONFLICT (key) DO UPDATE SET message = excluded.message`,
  dismissed: `SELECT key, message FROM dismissed_problems`,
};

/**
 * What needs the person, or may: the problems of items that could not be synced (`problems`),
 * the conflicts kept with a copy (`conflicts`, schema part 7) and the problems they dismissed.
 */
export class ProblemsRepo extends Repository {
  /** `fold` maps a local path to the key under which the volume compares names. */
  constructor(
    db: Db,
    private readonly fold: (p: string) => string,
  ) {
    super(db, SQL);
  }

  set(p: StoredProblem): void {
    const words = wordsColumn(p.words);
    this.s.set!.run(p.key, p.path, p.remoteId, p.reason, p.message, p.at, words);
  }

  /** Says whether there was one. */
  clear(key: string): boolean {
    return this.s.del!.run(key).changes > 0;
  }

  all(): StoredProblem[] {
    return (this.s.all!.all() as ProblemRow[]).map(problemOf);
  }

  /**
   * Problems below a folder that moved go with it (seed 717422688: the chain's bottom, never
   * placed here, kept its old path when its top folder was renamed in case, and so no problem
   * named it where it is). A problem keyed by its path (status.ts `problemKey`) is keyed anew.
   * Called by `ItemsRepo.moveTree`, inside its transaction.
   */
  moveBelow(from: string, to: string): void {
    const prefix = this.fold(from) + '/';
    const moved = (p: string) => (this.fold(p).startsWith(prefix) ? to + p.slice(from.length) : p);
    for (const p of this.all()) {
      const path = moved(p.path);
      if (path === p.path) continue;
      const params = p.words?.params;
      const words = params && {
        ...p.words!,
        params: Object.fromEntries(
          Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? moved(v) : v]),
        ),
      };
      const key = p.key === `path:${p.path}` ? `path:${path}` : p.key;
      if (key !== p.key) this.clear(p.key);
      this.set({ ...p, key, path, ...(words ? { words } : {}) });
    }
  }

  addConflict(c: Omit<StoredConflict, 'id'>): StoredConflict {
    this.s.conflictDelCopy!.run(c.copy);
    const id = Number(
      this.s.conflictAdd!.run(c.path, c.copy, c.message, c.at, c.copyFacts, wordsColumn(c.words))
        .lastInsertRowid,
    );
    return { id, ...c };
  }

  /** Says whether there was one. */
  removeConflict(id: number): boolean {
    return this.s.conflictDel!.run(id).changes > 0;
  }

  conflict(id: number): StoredConflict | undefined {
    const r = this.s.conflictGet!.get(id) as ConflictRow | undefined;
    return r && conflictOf(r);
  }

  conflicts(): StoredConflict[] {
    return (this.s.conflictsAll!.all() as ConflictRow[]).map(conflictOf);
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
