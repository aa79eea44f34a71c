// Copy-on-write string maps for labels and annotations: copies share storage until one side edits.

const EMPTY: Readonly<Record<string, string>> = Object.freeze(Object.create(null));

/** KV is a string map that clones its storage on the first edit after a copy. */
export class KV {
  #m: Readonly<Record<string, string>>;

  constructor(init?: Readonly<Record<string, string>>) {
    this.#m = init && Object.keys(init).length > 0 ? Object.freeze({ ...init }) : EMPTY;
  }

  get(key: string): string | undefined {
    return Object.hasOwn(this.#m, key) ? this.#m[key] : undefined;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.#m, key);
  }

  /** set returns false when the key already held this value (nothing changed). */
  set(key: string, value: string): boolean {
    if (this.#m[key] === value && Object.hasOwn(this.#m, key)) return false;
    this.#m = Object.freeze({ ...this.#m, [key]: value });
    return true;
  }

  delete(key: string): boolean {
    if (!Object.hasOwn(this.#m, key)) return false;
    const { [key]: _, ...rest } = this.#m;
    this.#m = Object.keys(rest).length > 0 ? Object.freeze(rest) : EMPTY;
    return true;
  }

  /** do batches several edits into one clone. */
  do(edit: (m: Record<string, string>) => void): void {
    const draft: Record<string, string> = { ...this.#m };
    edit(draft);
    this.#m = Object.keys(draft).length > 0 ? Object.freeze(draft) : EMPTY;
  }

  /** raw is the frozen backing record; safe to share. */
  raw(): Readonly<Record<string, string>> {
    return this.#m;
  }

  keys(): string[] {
    return Object.keys(this.#m).sort();
  }

  get size(): number {
    return Object.keys(this.#m).length;
  }

  empty(): boolean {
    return this.#m === EMPTY || Object.keys(this.#m).length === 0;
  }

  equal(other: KV): boolean {
    const a = this.#m;
    const b = other.#m;
    if (a === b) return true;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) if (!Object.hasOwn(b, k) || a[k] !== b[k]) return false;
    return true;
  }

  /** copyInto shares storage with a fresh instance of the same class (copy-on-write). */
  protected shareWith<T extends KV>(fresh: T): T {
    (fresh as KV).#m = this.#m;
    return fresh;
  }

  copy(): KV {
    return this.shareWith(new KV());
  }
}

/** Annotations are free-form notes on a resource. */
export class Annotations extends KV {
  override copy(): Annotations {
    return this.shareWith(new Annotations());
  }
}
