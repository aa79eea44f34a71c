// FdPoller: readiness of raw descriptors (netlink, packet and uevent sockets) delivered on the event loop.
// One epoll set per process; one epoll_wait at a time runs on a libuv pool thread (koffi's async call), so
// machined's loop never blocks and an idle node spends no CPU: no timers, the pool thread sleeps in the
// kernel. Handlers run on the main thread, level-triggered: whatever a handler leaves unread wakes it again.
// An eventfd in the set wakes the wait when the last watch goes, so nothing keeps the loop alive after.
import { ARCH } from './arch.js';
import { check } from './errno.js';
import { libc } from './libc.js';

const EPOLL_CLOEXEC = 0o2000000;
const EPOLL_CTL_ADD = 1;
const EPOLL_CTL_DEL = 2;
export const EPOLLIN = 0x001;
export const EPOLLERR = 0x008;
export const EPOLLHUP = 0x010;
const EFD_CLOEXEC = 0o2000000;
const EFD_NONBLOCK = 0o4000;
const MAX_EVENTS = 32;

const epoll_create1 = libc.func('int epoll_create1(int flags)');
const epoll_ctl = libc.func('int epoll_ctl(int epfd, int op, int fd, const uint8_t *event)');
const epoll_wait = libc.func('int epoll_wait(int epfd, _Out_ uint8_t *events, int max, int timeout)');
const eventfd_ = libc.func('int eventfd(unsigned int initval, int flags)');
const write_ = libc.func('long write(int fd, const uint8_t *buf, size_t len)');
const read_ = libc.func('long read(int fd, _Out_ uint8_t *buf, size_t len)');
const close_ = libc.func('int close(int fd)');

/** ReadyHandler runs on the main thread with the epoll event bits (EPOLLIN, EPOLLERR, EPOLLHUP). */
export type ReadyHandler = (events: number) => void;

export interface Watch {
  /** close stops watching (before the descriptor itself is closed); calling it twice is harmless */
  close(): void;
}

/** An uncaught handler error goes here rather than killing the poll loop. */
export type PollErrorSink = (fd: number, err: unknown) => void;

export class FdPoller {
  readonly #ep: number;
  readonly #wake: number;
  readonly #handlers = new Map<number, ReadyHandler>();
  readonly #events = Buffer.alloc(ARCH.epollEvent.size * MAX_EVENTS);
  #waiting = false;
  #closed = false;
  #failures = 0;

  constructor(private readonly onError: PollErrorSink = defaultSink) {
    this.#ep = check(epoll_create1(EPOLL_CLOEXEC), 'epoll_create1');
    this.#wake = check(eventfd_(0, EFD_CLOEXEC | EFD_NONBLOCK), 'eventfd');
    this.#ctl(EPOLL_CTL_ADD, this.#wake, EPOLLIN);
  }

  /** watching counts the descriptors being watched. */
  get watching(): number {
    return this.#handlers.size;
  }

  /** watch calls `onReady` whenever `fd` is readable (or in error); one watch per descriptor. */
  watch(fd: number, onReady: ReadyHandler): Watch {
    if (this.#closed) throw new Error('the poller is closed');
    if (this.#handlers.has(fd)) throw new Error(`fd ${fd} is already watched`);
    this.#ctl(EPOLL_CTL_ADD, fd, EPOLLIN);
    this.#handlers.set(fd, onReady);
    this.#arm();
    let open = true;
    return {
      close: () => {
        if (!open) return;
        open = false;
        this.#handlers.delete(fd);
        // a descriptor closed first has already left the set (EBADF, ENOENT): nothing to undo
        epoll_ctl(this.#ep, EPOLL_CTL_DEL, fd, null);
        if (this.#handlers.size === 0 && this.#waiting) this.#poke();
      },
    };
  }

  #ctl(op: number, fd: number, events: number): void {
    const ev = Buffer.alloc(ARCH.epollEvent.size);
    ev.writeUInt32LE(events, 0);
    ev.writeUInt32LE(fd, ARCH.epollEvent.dataOffset);
    check(epoll_ctl(this.#ep, op, fd, ev), 'epoll_ctl', fd);
  }

  #poke(): void {
    const one = Buffer.alloc(8);
    one.writeBigUInt64LE(1n);
    write_(this.#wake, one, 8);
  }

  #arm(): void {
    if (this.#waiting || this.#handlers.size === 0) return;
    this.#waiting = true;
    epoll_wait.async(this.#ep, this.#events, MAX_EVENTS, -1, (err: unknown, n: number) => {
      this.#waiting = false;
      if (err || n < 0) {
        // EINTR is the usual cause; a persistent failure must not spin
        if (++this.#failures > 100)
          return this.onError(this.#ep, err ?? new Error('epoll_wait keeps failing'));
        return this.#arm();
      }
      this.#failures = 0;
      this.#dispatch(n);
      this.#arm();
    });
  }

  #dispatch(n: number): void {
    const { size, dataOffset } = ARCH.epollEvent;
    for (let i = 0; i < n; i++) {
      const bits = this.#events.readUInt32LE(i * size);
      const fd = this.#events.readUInt32LE(i * size + dataOffset);
      if (fd === this.#wake) {
        read_(this.#wake, Buffer.alloc(8), 8);
        continue;
      }
      const h = this.#handlers.get(fd); // gone if unwatched by an earlier handler of this batch
      if (!h) continue;
      try {
        h(bits);
      } catch (e) {
        this.onError(fd, e);
      }
    }
  }

  /** close ends the poller; watches still open are dropped. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#handlers.clear();
    if (this.#waiting) this.#poke();
    // the pool thread may still be inside epoll_wait: the set is closed once it has returned
    const finish = (): void => {
      if (this.#waiting) {
        setImmediate(finish);
        return;
      }
      close_(this.#ep);
      close_(this.#wake);
    };
    finish();
  }
}

function defaultSink(fd: number, err: unknown): void {
  process.emitWarning(`fd ${fd}: ${(err as Error)?.message ?? String(err)}`, 'FdPollerWarning');
}

let shared: FdPoller | undefined;

/** poller is the process's one FdPoller, made on first use. */
export const poller = (): FdPoller => {
  shared ??= new FdPoller();
  return shared;
};

/**
 * readable resolves once `fd` is readable (or in error) and rejects when the signal aborts first. A
 * descriptor epoll cannot watch (a regular file: EPERM) is refused at once, so a caller can fall back.
 */
export function readable(fd: number, signal?: AbortSignal, p: FdPoller = poller()): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      w.close();
      reject(signal?.reason);
    };
    const w = p.watch(fd, () => {
      w.close();
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
