// The uevent subscription on the kernel's own events: synthetic ones written to a device's uevent file
// (tagged, so this test knows its own among everyone else's), and the hotplug of a loop device made,
// partitioned, detached and removed here. Every wait is bounded; every socket is closed at the end.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { isBlockUevent, type Uevent } from '../../../../src/sys/block/uevent/message.js';
import {
  NETLINK_KOBJECT_UEVENT,
  subscribeUevents,
  type UeventEvent,
  type UeventSubscribeOptions,
} from '../../../../src/sys/block/uevent/socket.js';
import { sockaddrNl } from '../../../../src/sys/netlink/index.js';
import { FdPoller } from '../../../../src/sys/poller.js';
import { AF_NETLINK, bind, closeFd, SOCK_RAW, sendto, socket } from '../../../../src/sys/socket.js';
import { attachLoop, image, partitionedLoop, tempDir } from '../devices/loop-fixture.js';

function ownPoller(): FdPoller {
  const p = new FdPoller();
  onTestFinished(() => p.close());
  return p;
}

/** collect subscribes with a handler and lets the test wait, bounded, for an event it describes. */
function collect(opts: Omit<UeventSubscribeOptions, 'onEvent'> = {}) {
  const events: UeventEvent[] = [];
  const waiters = new Set<() => void>();
  const sub = subscribeUevents({
    ...opts,
    onEvent: (e) => {
      events.push(e);
      for (const w of [...waiters]) w();
    },
  });
  onTestFinished(() => sub.close());
  /** waitFor resolves with the first event from index `from` on that `pred` accepts */
  const waitFor = (
    what: string,
    pred: (e: UeventEvent) => boolean,
    from = 0,
    ms = 10_000,
  ): Promise<UeventEvent> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const hit = events.slice(from).find(pred);
        if (!hit) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(hit);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no ${what} within ${ms} ms (saw ${events.length} events)`));
      }, ms);
      waiters.add(check);
      check();
    });
  return { sub, events, waitFor };
}

const uevent = (e: UeventEvent): Uevent | undefined => (e.kind === 'uevent' ? e.uevent : undefined);

/** a tag the kernel takes as a synthetic argument's value: letters and digits only */
const newTag = () => randomUUID().replaceAll('-', '');

/** synth makes the kernel announce `name` again, with a tag only this test knows (SYNTH_ARG_KEEL). */
function synth(name: string, tag: string, action = 'change'): void {
  writeFileSync(`/sys/class/block/${name}/uevent`, `${action} ${randomUUID()} KEEL=${tag}`);
}
const tagged = (tag: string) => (e: UeventEvent) => uevent(e)?.env.SYNTH_ARG_KEEL === tag;

describe('the uevent subscription', () => {
  it('delivers the kernel’s block events, parsed, and passes over those the match refuses', async () => {
    const loop = attachLoop(image(tempDir('ue-synth'), 1 << 20));
    const { sub, waitFor } = collect({ match: isBlockUevent, poller: ownPoller() });
    writeFileSync('/sys/class/mem/null/uevent', 'change'); // subsystem mem: not for a block consumer
    const tag = newTag();
    synth(loop.name, tag);
    const e = uevent(await waitFor('the tagged change', tagged(tag)));
    expect(e).toMatchObject({
      action: 'change',
      subsystem: 'block',
      devpath: `/devices/virtual/block/${loop.name}`,
      devname: loop.name,
      devtype: 'disk',
      major: 7,
      minor: loop.n,
    });
    expect(e!.seqnum).toBeGreaterThan(0);
    expect(sub.ignored).toBeGreaterThan(0); // the mem event came first and was passed over
  });

  it('sees a loop device come, gain partitions, lose its backing and go', async () => {
    const { events, waitFor } = collect({ match: isBlockUevent, poller: ownPoller() });
    const loop = partitionedLoop(tempDir('ue-hotplug'), { create: true });
    const p1 = `${loop.name}p1`;
    const of = (action: string, devname: string) => (e: UeventEvent) =>
      uevent(e)?.action === action && uevent(e)?.devname === devname;
    await waitFor(`add of ${loop.name}`, of('add', loop.name));
    await waitFor(`change of ${loop.name}`, of('change', loop.name));
    const added = uevent(await waitFor(`add of ${p1}`, of('add', p1)));
    expect(added).toMatchObject({ devtype: 'partition', env: { PARTN: '1' } });
    expect(added!.devpath).toBe(`/devices/virtual/block/${loop.name}/${p1}`);
    const seen = events.length;
    loop.detach();
    await waitFor(`remove of ${p1}`, of('remove', p1), seen);
    await waitFor(`remove of ${loop.name}`, of('remove', loop.name), seen);
    const after = events.slice(seen).map(uevent);
    expect(after.some((u) => u?.action === 'change' && u.devname === loop.name)).toBe(true);
    // in the kernel's order: the disk's change, then its partitions go, then the disk itself
    const seqOf = (action: string, name: string) =>
      after.find((u) => u?.action === action && u.devname === name)!.seqnum;
    expect(seqOf('remove', p1)).toBeLessThan(seqOf('remove', loop.name));
  });

  it('reports a receive queue that overflowed as one resync, and goes on delivering', async () => {
    const loop = attachLoop(image(tempDir('ue-flood'), 1 << 20));
    const { waitFor } = collect({ rcvbuf: 1, match: isBlockUevent, poller: ownPoller() }); // the kernel's floor
    // written in one turn of the loop, so the handler cannot drain in between: the queue overflows
    for (let i = 0; i < 200; i++) synth(loop.name, `flood${i}`);
    const resync = await waitFor('a resync', (e) => e.kind === 'resync');
    expect(resync).toEqual({ kind: 'resync', reason: 'the kernel dropped uevents (ENOBUFS)' });
    const tag = newTag();
    synth(loop.name, tag);
    await waitFor('the change after the flood', tagged(tag));
  });

  it('takes only the kernel’s word: a datagram another process sends to the group is passed over', async () => {
    const loop = attachLoop(image(tempDir('ue-forged'), 1 << 20));
    const { sub, events, waitFor } = collect({ poller: ownPoller() });
    const forger = socket(AF_NETLINK, SOCK_RAW, NETLINK_KOBJECT_UEVENT);
    onTestFinished(() => closeFd(forger));
    bind(forger, sockaddrNl());
    const forged =
      'add@/devices/virtual/keel-test/forged\0ACTION=add\0DEVPATH=/devices/virtual/keel-test/forged\0';
    expect(sendto(forger, Buffer.from(`${forged}SUBSYSTEM=keel-test\0SEQNUM=1\0`), sockaddrNl(0, 1))).toBe(
      true,
    );
    const tag = newTag();
    synth(loop.name, tag); // sent after the forgery, so it arrives after it
    await waitFor('the real change', tagged(tag));
    expect(events.some((e) => uevent(e)?.subsystem === 'keel-test')).toBe(false);
    expect(sub.ignored).toBeGreaterThan(0);
  });

  it('serves an async iterator, and closing leaves nothing watched or pending', async () => {
    const loop = attachLoop(image(tempDir('ue-iter'), 1 << 20));
    const poller = ownPoller();
    const sub = subscribeUevents({ match: isBlockUevent, poller });
    onTestFinished(() => sub.close());
    expect(poller.watching).toBe(1);
    const tag = newTag();
    synth(loop.name, tag);
    let got: Uevent | undefined;
    const bound = setTimeout(() => sub.close(), 10_000); // a missing event ends the loop, and the test fails
    for await (const e of sub) {
      if (tagged(tag)(e)) {
        got = uevent(e);
        break; // leaving the loop closes the subscription
      }
    }
    clearTimeout(bound);
    expect(got?.devname).toBe(loop.name);
    expect(sub.closed).toBe(true);
    expect(poller.watching).toBe(0);
    expect(await sub.next()).toEqual({ value: undefined, done: true });
  });

  it('ends a waiting consumer on close and on an abort, and has one consumer at a time', async () => {
    const poller = ownPoller();
    const sub = subscribeUevents({ match: () => false, poller });
    onTestFinished(() => sub.close());
    const waiting = sub.next();
    await expect(sub.next()).rejects.toThrow('one consumer at a time');
    sub.close();
    expect(await waiting).toEqual({ value: undefined, done: true });
    sub.close(); // twice is harmless

    const ctl = new AbortController();
    const aborted = subscribeUevents({ poller, signal: ctl.signal });
    onTestFinished(() => aborted.close());
    const pending = aborted.next();
    ctl.abort();
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(aborted.closed).toBe(true);
    expect(poller.watching).toBe(0);
    expect(subscribeUevents({ poller, signal: AbortSignal.abort() }).closed).toBe(true);
  });
});
