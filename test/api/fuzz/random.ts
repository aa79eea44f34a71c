// A seeded generator (xorshift32): the same seed gives the same cases, so a failure replays exactly.

export class Rng {
  private x: number;
  constructor(readonly seed: number) {
    this.x = seed >>> 0 || 0x9e3779b9;
  }
  /** next is a uniform 32-bit unsigned integer */
  next(): number {
    let x = this.x;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.x = x >>> 0;
    return this.x;
  }
  /** int is uniform in [0, n) */
  int(n: number): number {
    return n <= 1 ? 0 : this.next() % n;
  }
  chance(p: number): boolean {
    return this.next() / 0x1_0000_0000 < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  bytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) out[i] = this.next() & 0xff;
    return out;
  }
  /** size is a length skewed small, now and then large: most bugs need little, some need a lot */
  size(max: number): number {
    const r = this.int(100);
    if (r < 70) return this.int(Math.min(16, max + 1));
    if (r < 95) return this.int(Math.min(1024, max + 1));
    return this.int(max + 1);
  }
}
