import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ARCH, archTable } from '../../src/sys/arch.js';
import { isSysError } from '../../src/sys/errno.js';
import { pipe } from '../../src/sys/pipe.js';
import { EPOLLHUP, EPOLLIN, FdPoller, readable } from '../../src/sys/poller.js';
import { runSnippet, scratchDir, sys } from './child.js';

const once = (p: FdPoller, fd: number) =>
  new Promise<number>((resolve) => {
    const w = p.watch(fd, (bits) => {
      w.close();
      resolve(bits);
    });
  });

describe('FdPoller', () => {
  it('wakes a handler on the main thread when a descriptor becomes readable', async () => {
    const p = new FdPoller();
    const [r, w] = pipe();
    try {
      const ready = once(p, r);
      setTimeout(() => writeSync(w, 'x'), 20);
      expect((await ready) & EPOLLIN).toBe(EPOLLIN);
      expect(p.watching).toBe(0);
    } finally {
      p.close();
      closeSync(r);
      closeSync(w);
    }
  });

  it('serves many descriptors from one wait, each handler with its own', async () => {
    const p = new FdPoller();
    const pipes = Array.from({ length: 5 }, () => pipe());
    try {
      const seen = pipes.map(([r]) => once(p, r));
      for (const [, w] of pipes.reverse()) writeSync(w, 'y');
      const bits = await Promise.all(seen);
      expect(bits.every((b) => (b & EPOLLIN) !== 0)).toBe(true);
    } finally {
      p.close();
      for (const [r, w] of pipes) {
        closeSync(r);
        closeSync(w);
      }
    }
  });

  it('reports a hang-up, and a level left unread wakes the handler again', async () => {
    const p = new FdPoller();
    const [r, w] = pipe();
    try {
      writeSync(w, 'z');
      let calls = 0;
      const twice = new Promise<void>((resolve) => {
        const watch = p.watch(r, () => {
          if (++calls === 2) {
            watch.close();
            resolve();
          }
        });
      });
      await twice; // nothing read: still readable
      closeSync(w);
      expect((await once(p, r)) & (EPOLLIN | EPOLLHUP)).not.toBe(0);
    } finally {
      p.close();
      closeSync(r);
    }
  });

  it('refuses a second watch of one descriptor and watches after close', () => {
    const p = new FdPoller();
    const [r, w] = pipe();
    try {
      const watch = p.watch(r, () => {});
      expect(() => p.watch(r, () => {})).toThrow(/already watched/);
      watch.close();
      watch.close();
      p.close();
      expect(() => p.watch(r, () => {})).toThrow(/closed/);
    } finally {
      closeSync(r);
      closeSync(w);
    }
  });

  it('a handler that throws is reported, and the others keep being served', async () => {
    const errors: unknown[] = [];
    const p = new FdPoller((_fd, e) => errors.push(e));
    const [r1, w1] = pipe();
    const [r2, w2] = pipe();
    try {
      const bad = p.watch(r1, () => {
        bad.close();
        throw new Error('handler broke');
      });
      const good = once(p, r2);
      writeSync(w1, 'a');
      await new Promise((res) => setTimeout(res, 20));
      writeSync(w2, 'b');
      await good;
      expect(errors.map((e) => (e as Error).message)).toEqual(['handler broke']);
    } finally {
      p.close();
      for (const fd of [r1, w1, r2, w2]) closeSync(fd);
    }
  });

  it('an idle watch costs no CPU, and the process exits once the last watch closes', () => {
    const res = runSnippet(`
      import { pipe } from ${JSON.stringify(sys('pipe.ts'))};
      import { poller } from ${JSON.stringify(sys('poller.ts'))};
      const [r] = pipe();
      const watch = poller().watch(r, () => {});
      const before = process.cpuUsage();
      await new Promise((res) => setTimeout(res, 1000));
      const used = process.cpuUsage(before);
      console.log(JSON.stringify({ us: used.user + used.system }));
      watch.close(); // with nothing else pending the process must now end by itself
    `);
    expect(res.status, res.stderr).toBe(0);
    const { us } = JSON.parse(res.stdout) as { us: number };
    // a busy poll would burn the whole second; a sleeping wait costs the timer's wake-up only
    expect(us).toBeLessThan(50_000);
  });
});

describe('readable', () => {
  it('resolves once data arrives, rejects on abort, and refuses a plain file epoll cannot watch', async () => {
    const p = new FdPoller();
    const [r, w] = pipe();
    const dir = scratchDir('keel-poll-');
    const file = openSync(`${dir}/f`, 'w+');
    try {
      const arrived = readable(r, undefined, p);
      setTimeout(() => writeSync(w, 'x'), 10);
      await arrived;
      const ac = new AbortController();
      const [r2, w2] = pipe();
      const waiting = readable(r2, ac.signal, p).catch((e: unknown) => e);
      ac.abort(new Error('stopped'));
      expect(String(await waiting)).toContain('stopped');
      expect(p.watching).toBe(0);
      closeSync(r2);
      closeSync(w2);
      writeFileSync(`${dir}/f`, 'data');
      const refused = await readable(file, undefined, p).catch((e: unknown) => e);
      expect(isSysError(refused, 'EPERM')).toBe(true);
    } finally {
      p.close();
      for (const fd of [r, w, file]) closeSync(fd);
    }
  });
});

describe('archTable', () => {
  it('knows this architecture, packs epoll_event on x86_64 only, and names an unknown one', () => {
    expect(ARCH.sys.fsopen).toBe(430);
    expect(archTable('x64').epollEvent).toEqual({ size: 12, dataOffset: 4 });
    expect(archTable('arm64').epollEvent).toEqual({ size: 16, dataOffset: 8 });
    expect(archTable('arm64').sys.reboot).toBe(142);
    expect(() => archTable('mips')).toThrow(/no syscall table for architecture mips/);
  });
});
