import { commitNow, Repository } from './repository';
import type { Db } from './schema';

/** A remote mutation, recorded before it is sent and completed after (the outbox). */
export interface Intent {
  id: number;
  op: string;
  payload: unknown;
  state: 'pending' | 'sent' | 'done' | 'failed';
  createdAt: number;
  attempts: number;
}

type Row = {
  id: number;
  op: string;
  payload: string;
  state: Intent['state'];
  created_at: number;
  attempts: number;
};

/** The outbox of intents: every remote mutation is journaled here before it is sent. */
export class OutboxRepo extends Repository {
  constructor(db: Db) {
    super(db, {
      add: `INSERT INTO outbox (op, payload, created_at) VALUES (?, ?, ?)`,
      sent: `UPDATE outbox SET state = 'sent', sent_at = ?, attempts = attempts + 1
        WHERE id = ?`,
      done: `UPDATE outbox SET state = ?, done_at = ?, result = ? WHERE id = ?`,
      open: `SELECT * FROM outbox WHERE state IN ('pending', 'sent') ORDER BY id`,
    });
  }

  /**
   * Records an intent and commits at once, even inside a `batch`: the intent must be on disk
   * before its request leaves, or a crash could leave a change on the service that nothing here
   * knows about.
   */
  add(op: string, payload: unknown, now = Date.now()): number {
    const id = Number(this.s.add!.run(op, JSON.stringify(payload), now).lastInsertRowid);
    commitNow(this.db);
    return id;
  }

  markSent(id: number, now = Date.now()): void {
    this.s.sent!.run(now, id);
  }

  complete(id: number, result: unknown, now = Date.now()): void {
    this.s.done!.run('done', now, JSON.stringify(result ?? null), id);
  }

  fail(id: number, reason: string, now = Date.now()): void {
    this.s.done!.run('failed', now, JSON.stringify({ error: reason }), id);
  }

  /** Intents not finished: pending, or sent with no answer recorded (a crash between). */
  open(): Intent[] {
    return (this.s.open!.all() as Row[]).map((r) => ({
      id: r.id,
      op: r.op,
      payload: JSON.parse(r.payload) as unknown,
      state: r.state,
      createdAt: r.created_at,
      attempts: r.attempts,
    }));
  }
}
