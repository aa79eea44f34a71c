// The NETLINK_ROUTE socket against the real kernel, in a namespace of its own: requests and their acks,
// refusals as typed errors with the kernel's text, dumps, many requests in flight, a closed socket, and
// a subscription's events (and its resync when the kernel drops them).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { isSysError } from '../../../src/sys/errno.js';
import * as C from '../../../src/sys/netlink/constants.js';
import {
  decodeLink,
  encodeLink,
  isNetlinkError,
  NetlinkSocket,
  type RtnlEvent,
  subscribe,
} from '../../../src/sys/netlink/index.js';
import { FdPoller } from '../../../src/sys/poller.js';
import { scratchDir } from '../child.js';
import { enterNetns, ip } from '../netns.js';

const caught = async (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

enterNetns(); // the whole file, both suites, runs in a namespace of its own

describe('NetlinkSocket', () => {
  const poller = new FdPoller();
  const sock = new NetlinkSocket({ poller });
  afterAll(() => {
    sock.close();
    poller.close();
  });

  it('dumps links until NLMSG_DONE and gets one by name with an ack', async () => {
    const all = await sock.dump(C.RTM_GETLINK, encodeLink({}));
    expect(all.map((m) => decodeLink(m.data).name)).toEqual(['lo']);
    const one = await sock.request(C.RTM_GETLINK, 0, encodeLink({ name: 'lo' }));
    expect(one).toHaveLength(1);
    expect(decodeLink(one[0]!.data)).toMatchObject({ index: 1, name: 'lo', address: '00:00:00:00:00:00' });
    expect(sock.portId).toBeGreaterThan(0);
    expect(sock.inFlight).toBe(0);
  });

  it('turns a refusal into a NetlinkError with the errno, the call and the extended-ack text', async () => {
    const e = await caught(
      sock.request(C.RTM_GETLINK, 0, encodeLink({ name: 'nope0' }), { args: ['nope0'] }),
    );
    expect(isNetlinkError(e, 'ENODEV')).toBe(true);
    expect(String(e)).toMatch(/^NetlinkError: RTM_GETLINK\("nope0"\): ENODEV/);
    const bad = encodeLink({ name: 'x0', info: { kind: 'no-such-kind' } });
    const e2 = await caught(
      sock.request(C.RTM_NEWLINK, C.NLM_F_CREATE | C.NLM_F_EXCL, bad, { call: 'createLink' }),
    );
    expect(isSysError(e2, 'EOPNOTSUPP', 'ENOTSUP')).toBe(true); // one number (95), two names
    expect((e2 as { extAck?: string }).extAck).toMatch(/unknown device type/i);
  });

  it('matches many requests in flight to their own replies', async () => {
    ip('link', 'add', 'cc0', 'type', 'bridge');
    const names = Array.from({ length: 60 }, (_, i) => ['lo', 'cc0', `missing${i}`][i % 3]!);
    const got = await Promise.all(
      names.map((name) =>
        sock.request(C.RTM_GETLINK, 0, encodeLink({ name })).then(
          (r) => decodeLink(r[0]!.data).name,
          (e: unknown) => (isNetlinkError(e, 'ENODEV') ? 'ENODEV' : e),
        ),
      ),
    );
    expect(got).toEqual(names.map((n) => (n.startsWith('missing') ? 'ENODEV' : n)));
  });

  it('refuses clearly once closed, and an aborted signal ends a wait', async () => {
    const s = new NetlinkSocket({ poller });
    s.close();
    s.close();
    const e = await caught(
      s.request(C.RTM_GETLINK, 0, encodeLink({ name: 'lo' }), { call: 'linkByName', args: ['lo'] }),
    );
    expect(isNetlinkError(e, 'ESHUTDOWN')).toBe(true);
    expect(String(e)).toMatch(/linkByName\("lo"\): ESHUTDOWN .*closed/);
    const ac = new AbortController();
    ac.abort();
    const e2 = await caught(sock.dump(C.RTM_GETLINK, encodeLink({}), { signal: ac.signal }));
    expect((e2 as Error).name).toBe('AbortError');
  });
});

describe('NetlinkSubscription', () => {
  const poller = new FdPoller();
  afterAll(() => poller.close());

  it('delivers link, address and route events made behind its back, through the async iterator', async () => {
    const sub = subscribe({ poller });
    const seen: RtnlEvent[] = [];
    ip('link', 'add', 'ev0', 'type', 'bridge');
    ip('link', 'set', 'ev0', 'up');
    ip('addr', 'add', '198.51.100.1/24', 'dev', 'ev0');
    ip('route', 'add', '203.0.113.0/24', 'via', '198.51.100.7', 'dev', 'ev0');
    ip('route', 'del', '203.0.113.0/24');
    ip('addr', 'del', '198.51.100.1/24', 'dev', 'ev0');
    ip('link', 'set', 'ev0', 'down');
    const want = (e: RtnlEvent) =>
      e.kind === 'link' &&
      e.action === 'new' &&
      e.link.name === 'ev0' &&
      !(e.link.flags & C.IFF_UP) &&
      seen.some((x) => x.kind === 'route' && x.action === 'del');
    for await (const e of sub) {
      seen.push(e);
      if (want(e)) break; // break closes the subscription
    }
    expect(sub.closed).toBe(true);
    const brief = seen.map((e) =>
      e.kind === 'link'
        ? `link ${e.action} ${e.link.name} ${e.link.flags & C.IFF_UP ? 'up' : 'down'}`
        : e.kind === 'address'
          ? `address ${e.action} ${e.address.local}/${e.address.prefixLen}`
          : e.kind === 'route'
            ? `route ${e.action} ${e.route.dst}/${e.route.dstLen} via ${e.route.gateway}`
            : e.kind,
    );
    expect(brief).toContain('link new ev0 up');
    expect(brief).toContain('address new 198.51.100.1/24');
    expect(brief).toContain('route new 203.0.113.0/24 via 198.51.100.7');
    expect(brief).toContain('route del 203.0.113.0/24 via 198.51.100.7');
    expect(brief).toContain('address del 198.51.100.1/24');
    expect(brief.at(-1)).toBe('link new ev0 down');
  });

  it('reports an overflowing receive queue (ENOBUFS) as a resync event, and keeps going', async () => {
    const events: RtnlEvent[] = [];
    const sub = subscribe({ poller, rcvbuf: 4096, groups: [C.RTNLGRP_LINK], onEvent: (e) => events.push(e) });
    try {
      // `ip -batch` runs while this loop is blocked, so nothing drains the tiny queue
      const dir = scratchDir('keel-nl-');
      const batch = Array.from({ length: 200 }, (_, i) => `link add of${i} type bridge`).join('\n');
      writeFileSync(`${dir}/batch`, `${batch}\n`);
      execFileSync('ip', ['-batch', `${dir}/batch`]);
      await waitFor(() => events.some((e) => e.kind === 'resync'));
      ip('link', 'add', 'after0', 'type', 'bridge');
      await waitFor(() => events.some((e) => e.kind === 'link' && e.link.name === 'after0'));
      expect(events.filter((e) => e.kind === 'resync').length).toBeGreaterThan(0);
    } finally {
      sub.close();
    }
  });
});

async function waitFor(ok: () => boolean, ms = 5000): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}
