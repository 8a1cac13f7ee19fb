/**
 * Who waits for a round of the engine's loop to end: a files-on-demand action asked at the
 * pair's door is answered once the round that does it has run. A waiter waits for a round that
 * starts after it came; an action sent to the inbox right after is in that round (the inbox
 * applies what was sent before a round starts, and what comes during one before the next).
 */
export class RoundWaiters {
  private started = 0;
  private waiting: { after: number; ended: (failure?: unknown) => void }[] = [];

  /** Settles when a round that starts after this call has ended (rejects with its failure). */
  next(): Promise<void> {
    const after = this.started;
    return new Promise((resolve, reject) => {
      this.waiting.push({
        after,
        ended: (failure) => (failure === undefined ? resolve() : reject(failure)),
      });
    });
  }

  /** A round starts; its number is given back at its end. */
  start(): number {
    return ++this.started;
  }

  ended(round: number, failure?: unknown): void {
    const waiting = this.waiting;
    this.waiting = waiting.filter((w) => w.after >= round);
    for (const w of waiting) if (w.after < round) w.ended(failure);
  }
}
