// Finalizers: an ordered, copy-on-write list with set semantics; equality ignores order.

export type Finalizer = string;

const EMPTY: readonly Finalizer[] = Object.freeze([]);

export class Finalizers {
  #list: readonly Finalizer[];

  constructor(init?: readonly Finalizer[]) {
    this.#list = init && init.length > 0 ? Object.freeze([...new Set(init)]) : EMPTY;
  }

  /** add returns true when the finalizer was not there yet. */
  add(f: Finalizer): boolean {
    if (this.#list.includes(f)) return false;
    this.#list = Object.freeze([...this.#list, f]);
    return true;
  }

  /** remove returns true when the finalizer was there. */
  remove(f: Finalizer): boolean {
    const i = this.#list.indexOf(f);
    if (i < 0) return false;
    const next = [...this.#list];
    next.splice(i, 1);
    this.#list = next.length > 0 ? Object.freeze(next) : EMPTY;
    return true;
  }

  has(f: Finalizer): boolean {
    return this.#list.includes(f);
  }

  empty(): boolean {
    return this.#list.length === 0;
  }

  get size(): number {
    return this.#list.length;
  }

  /** set replaces the whole list. */
  set(list: readonly Finalizer[]): void {
    this.#list = list.length > 0 ? Object.freeze([...new Set(list)]) : EMPTY;
  }

  list(): readonly Finalizer[] {
    return this.#list;
  }

  /** equal compares as sets; the short lists that dominate avoid sorting. */
  equal(other: Finalizers): boolean {
    const a = this.#list;
    const b = other.#list;
    if (a === b) return true;
    if (a.length !== b.length) return false;
    if (a.length === 1) return a[0] === b[0];
    for (const f of a) if (!b.includes(f)) return false;
    return true;
  }

  copy(): Finalizers {
    const c = new Finalizers();
    c.#list = this.#list;
    return c;
  }
}
