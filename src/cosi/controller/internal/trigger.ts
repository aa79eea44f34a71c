// Trigger: a one-slot wake-up channel. Fires while one is pending coalesce; a waiter takes the slot.

export class Trigger {
  #pending = false;
  readonly #waiters: Array<(fired: boolean) => void> = [];

  /** fire returns true when it made a new wake-up (false: one was already pending). */
  fire(): boolean {
    const waiter = this.#waiters.shift();
    if (waiter) {
      waiter(true);
      return true;
    }
    if (this.#pending) return false;
    this.#pending = true;
    return true;
  }

  get pending(): boolean {
    return this.#pending;
  }

  /** wait resolves true with a wake-up, or false once any signal aborts. */
  wait(...signals: readonly AbortSignal[]): Promise<boolean> {
    if (signals.some((s) => s.aborted)) return Promise.resolve(false);
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const settle = (fired: boolean) => {
        for (const s of signals) s.removeEventListener('abort', onAbort);
        resolve(fired);
      };
      const onAbort = () => {
        const at = this.#waiters.indexOf(settle);
        if (at >= 0) this.#waiters.splice(at, 1);
        settle(false);
      };
      this.#waiters.push(settle);
      for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
    });
  }
}
