/**
 * Tokens of profiles being built elsewhere (the profiler worker), each with the callbacks of
 * those who wait for it to be queued or cancelled.
 */
export class Announcements {
  readonly #waiters = new Map<string, (() => void)[]>();
  /** woken when the announced count falls to #lowWater */
  #roomWaiters: (() => void)[] = [];
  #lowWater = 0;

  get size(): number {
    return this.#waiters.size;
  }

  has(token: string): boolean {
    return this.#waiters.has(token);
  }

  add(token: string): void {
    this.#waiters.set(token, []);
  }

  /** The profile came (or will not): wakes whoever waits for it. */
  settle(token: string): void {
    const waiters = this.#waiters.get(token);
    if (!waiters) return;
    this.#waiters.delete(token);
    for (const wake of waiters) wake();
    if (this.#roomWaiters.length > 0 && this.#waiters.size <= this.#lowWater)
      for (const wake of this.#roomWaiters.splice(0)) wake();
  }

  /**
   * Null while fewer than `high` are announced; otherwise resolves once half of `high` or fewer are,
   * or after `timeoutMs`.
   */
  whenBelow(high: number, timeoutMs: number): Promise<void> | null {
    if (this.#waiters.size < high) return null;
    this.#lowWater = Math.floor(high / 2);
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.#roomWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Ends every wait whenBelow() gave, at once: there is no longer a reason to hold anyone back. */
  releaseRoom(): void {
    for (const wake of this.#roomWaiters.splice(0)) wake();
  }

  /** Resolves once `token` is settled, or after `timeoutMs`. */
  settled(token: string, timeoutMs: number): Promise<void> {
    const waiters = this.#waiters.get(token);
    if (!waiters) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Resolves once every token announced so far is settled, or after `timeoutMs`. */
  async soFar(timeoutMs: number): Promise<void> {
    if (this.#waiters.size === 0) return;
    await Promise.all([...this.#waiters.keys()].map((token) => this.settled(token, timeoutMs)));
  }
}
