/** The sandbox's clock: real time plus an offset that tests move forward, or held still. */
export class Clock {
  private offsetMs = 0;
  private heldAt: number | null = null;

  now(): number {
    return this.heldAt ?? Date.now() + this.offsetMs;
  }

  get held(): boolean {
    return this.heldAt !== null;
  }

  /**
   * Stops the clock where it is until `release`: whatever happens meanwhile gets the same time,
   * as on a server fast enough to do it all within one second (the traffic bench's burst of
   * events in one second, whatever the speed of the machine). `advance` still moves it.
   */
  hold(): void {
    this.heldAt ??= this.now();
  }

  /** Lets the clock run again from real time plus the offset: a step forward by the time held. */
  release(): void {
    this.heldAt = null;
  }

  /**
   * Moves the clock to `ms` ago, for seeding a history before the sandbox serves anything;
   * `resume()` then brings it back to real time (a step forward).
   */
  rewind(ms: number): void {
    this.offsetMs -= ms;
    if (this.heldAt !== null) this.heldAt -= ms;
  }

  resume(): void {
    if (this.offsetMs < 0) this.offsetMs = 0;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
    this.offsetMs += ms;
    if (this.heldAt !== null) this.heldAt += ms;
  }
}
