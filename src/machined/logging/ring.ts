// LogRing: about 1 MiB of recent output per service; full 64 KiB chunks are kept deflated, the newest raw.
import { deflateRawSync, inflateRawSync } from 'node:zlib';

export interface LogRingOptions {
  /** raw bytes per chunk; default 64 KiB, as upstream */
  chunkSize?: number;
  /** sealed (compressed) chunks kept behind the live one; default 15, so 1 MiB raw in all */
  compressedChunks?: number;
  /** first allocation of the live chunk, which doubles up to chunkSize; default 16 KiB */
  initialCapacity?: number;
}

export interface ReadOptions {
  readonly signal: AbortSignal;
  /** start this many lines before the end; default: everything kept */
  readonly tailLines?: number;
  /** keep yielding new output until the signal aborts */
  readonly follow?: boolean;
}

interface Sealed {
  /** absolute offset of the chunk's first byte */
  readonly start: number;
  readonly length: number;
  readonly deflated: Buffer;
}

const KiB = 1024;

/**
 * Upstream keeps older chunks zstd-compressed; Node 20's zlib has no zstd, so they are raw-deflated
 * here. Offsets are absolute (bytes ever written), so readers survive chunks being dropped under them.
 */
export class LogRing {
  readonly #chunkSize: number;
  readonly #keep: number;
  readonly #sealed: Sealed[] = [];
  #live: Buffer;
  #liveLen = 0;
  #liveStart = 0;
  #wake: (() => void)[] = [];

  constructor(opts: LogRingOptions = {}) {
    this.#chunkSize = opts.chunkSize ?? 64 * KiB;
    this.#keep = opts.compressedChunks ?? 15;
    this.#live = Buffer.alloc(Math.min(opts.initialCapacity ?? 16 * KiB, this.#chunkSize));
  }

  /** written counts every byte ever written. */
  get written(): number {
    return this.#liveStart + this.#liveLen;
  }

  /** oldest is the offset of the first byte still kept. */
  get oldest(): number {
    return this.#sealed[0]?.start ?? this.#liveStart;
  }

  /** compressedChunks is how many sealed chunks are held (for tests and metrics). */
  get compressedChunks(): number {
    return this.#sealed.length;
  }

  write(data: Buffer | string): void {
    let buf = typeof data === 'string' ? Buffer.from(data) : data;
    while (buf.length > 0) {
      const room = this.#chunkSize - this.#liveLen;
      const n = Math.min(room, buf.length);
      this.#ensure(this.#liveLen + n);
      buf.copy(this.#live, this.#liveLen, 0, n);
      this.#liveLen += n;
      buf = buf.subarray(n);
      if (this.#liveLen === this.#chunkSize) this.#seal();
    }
    const wake = this.#wake;
    this.#wake = [];
    for (const w of wake) w();
  }

  /** slice returns the kept bytes in [from, to), clamped to what is still held. */
  slice(from = this.oldest, to = this.written): Buffer {
    const lo = Math.max(from, this.oldest);
    const hi = Math.min(to, this.written);
    if (hi <= lo) return Buffer.alloc(0);
    const parts: Buffer[] = [];
    for (const c of this.#sealed) {
      if (c.start + c.length <= lo || c.start >= hi) continue;
      const raw = inflateRawSync(c.deflated);
      parts.push(raw.subarray(Math.max(lo - c.start, 0), Math.min(hi - c.start, c.length)));
    }
    if (hi > this.#liveStart)
      parts.push(Buffer.from(this.#live.subarray(Math.max(lo - this.#liveStart, 0), hi - this.#liveStart)));
    return Buffer.concat(parts);
  }

  /** tailOffset is where the last `n` lines start (a trailing newline does not open a line). */
  tailOffset(n: number): number {
    const data = this.slice();
    let end = data.length;
    if (end > 0 && data[end - 1] === 0x0a) end--;
    let pos = end;
    for (let seen = 0; pos > 0; pos--) {
      if (data[pos - 1] === 0x0a && ++seen === n) break;
    }
    return n <= 0 ? this.written : this.oldest + pos;
  }

  /**
   * read yields what is kept (or its last lines), then, when following, each new write. A reader
   * overtaken by the ring skips to the oldest byte still held rather than failing.
   */
  async *read(opts: ReadOptions): AsyncGenerator<Buffer> {
    let cursor = opts.tailLines === undefined ? this.oldest : this.tailOffset(opts.tailLines);
    for (;;) {
      if (opts.signal.aborted) return;
      const end = this.written;
      if (cursor < end) {
        cursor = Math.max(cursor, this.oldest);
        const chunk = this.slice(cursor, end);
        cursor = end;
        yield chunk;
        continue;
      }
      if (!opts.follow) return;
      if (!(await this.#next(opts.signal))) return;
    }
  }

  #ensure(size: number): void {
    if (size <= this.#live.length) return;
    let cap = this.#live.length;
    while (cap < size) cap *= 2;
    const grown = Buffer.alloc(Math.min(cap, this.#chunkSize));
    this.#live.copy(grown, 0, 0, this.#liveLen);
    this.#live = grown;
  }

  #seal(): void {
    this.#sealed.push({
      start: this.#liveStart,
      length: this.#liveLen,
      deflated: deflateRawSync(this.#live.subarray(0, this.#liveLen)),
    });
    if (this.#sealed.length > this.#keep) this.#sealed.shift();
    this.#liveStart += this.#liveLen;
    this.#liveLen = 0;
  }

  #next(signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const onAbort = () => {
        this.#wake = this.#wake.filter((w) => w !== wake);
        resolve(false);
      };
      const wake = () => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      };
      this.#wake.push(wake);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
