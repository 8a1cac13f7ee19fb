/** The sandbox's clock: real time plus an offset that tests move forward. */
export class Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  /**
   * Moves the clock to `ms` ago, for seeding a history before the sandbox serves anything;
   * `resume()` then brings it back to real time (a step forward).
   */
  rewind(ms: number): void {
    this.offsetMs -= ms;
  }

  resume(): void {
    if (this.offsetMs < 0) this.offsetMs = 0;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
    this.offsetMs += ms;
  }
}
