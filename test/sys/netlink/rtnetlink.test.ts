// The typed layer against the real kernel, in a namespace of its own: links of each kind made, changed,
// read back with the decoder and checked against `ip -j`; addresses and routes; errors naming the call
// and the errno; a dump of 200 links. A kind this host's kernel lacks must be refused with a typed
// EOPNOTSUPP naming the call (Keel's own kernel has them all: the QEMU tests make them there).
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { isSysError } from '../../../src/sys/errno.js';
import * as C from '../../../src/sys/netlink/constants.js';
import {
  encodeLink,
  isNetlinkError,
  type Link,
  Rtnetlink,
  routePrefix,
} from '../../../src/sys/netlink/index.js';
import { FdPoller } from '../../../src/sys/poller.js';
import { enterNetns, ip } from '../netns.js';

enterNetns();

const quiet = (...args: string[]) => execFileSync('ip', args, { stdio: 'ignore' });

/** has tells whether this kernel can make links of a kind (CONFIG_DUMMY, CONFIG_VLAN_8021Q, ...). */
function has(kind: string): boolean {
  try {
    if (kind === 'vlan') {
      quiet('link', 'add', 'probe-p', 'type', 'bridge');
      try {
        quiet('link', 'add', 'link', 'probe-p', 'name', 'probe-v', 'type', 'vlan', 'id', '2');
      } finally {
        quiet('link', 'del', 'probe-p');
      }
    } else {
      quiet('link', 'add', 'probe0', 'type', kind);
      quiet('link', 'del', 'probe0');
    }
    return true;
  } catch {
    return false;
  }
}
const KINDS = Object.fromEntries(['dummy', 'vlan', 'bond', 'ifb', 'veth'].map((k) => [k, has(k)]));
const vlanFiltering = (() => {
  try {
    quiet('link', 'add', 'probe-f', 'type', 'bridge', 'vlan_filtering', '1');
    quiet('link', 'del', 'probe-f');
    return true;
  } catch {
    return false; // CONFIG_BRIDGE_VLAN_FILTERING
  }
})();
const lacks = (kind: string) => !KINDS[kind];

/** refusedWhenMissing: on a kernel without the kind, creating one is a typed refusal, not a crash. */
async function refusedWhenMissing(kind: 'dummy' | 'vlan' | 'bond'): Promise<boolean> {
  if (!lacks(kind)) return false;
  const name = `no-${kind}`;
  const spec =
    kind === 'vlan' ? { name, kind, parent: 'lo', id: 7 } : kind === 'bond' ? { name, kind } : { name, kind };
  const e = await caught(rt.createLink(spec as Parameters<typeof rt.createLink>[0]));
  expect(isNetlinkError(e, 'EOPNOTSUPP', 'ENOTSUP')).toBe(true);
  expect(String(e)).toContain(`createLink("${name}")`);
  return true;
}
/** a kind that every kernel with rtnetlink has is not guaranteed: the cheapest one this one has */
const CHEAP = KINDS.dummy ? 'dummy' : KINDS.ifb ? 'ifb' : 'bridge';

// biome-ignore lint/suspicious/noExplicitAny: iproute2's JSON
const ipj = (...args: string[]): any[] => JSON.parse(ip('-j', ...args) || '[]');
const caught = async (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

const poller = new FdPoller();
const rt = Rtnetlink.open({ poller });
afterAll(() => {
  rt.close();
  poller.close();
});

const byName = async (name: string): Promise<Link> => {
  const l = await rt.linkByName(name);
  if (!l) throw new Error(`no link ${name}`);
  return l;
};

describe('links', () => {
  it(`creates a dummy with MTU and address, up, and reads it back`, async () => {
    if (await refusedWhenMissing('dummy')) return;
    await rt.createLink({ name: 'dm0', kind: 'dummy', mtu: 1400, address: '02:00:00:00:00:01', up: true });
    const l = await byName('dm0');
    const [j] = ipj('-d', 'link', 'show', 'dm0');
    expect(l).toMatchObject({
      name: j.ifname,
      index: j.ifindex,
      mtu: j.mtu,
      address: j.address,
      info: { kind: 'dummy' },
    });
    expect(l.flags & C.IFF_UP).toBeTruthy();
    await rt.deleteLink('dm0');
    expect(await rt.linkByName('dm0')).toBeUndefined();
  });

  it(`creates a vlan on a parent`, async () => {
    if (await refusedWhenMissing('vlan')) return;
    await rt.createLink({ name: 'vp0', kind: 'bridge' });
    await rt.createLink({ name: 'vp0.42', kind: 'vlan', parent: 'vp0', id: 42, protocol: C.ETH_P_8021AD });
    const l = await byName('vp0.42');
    const [j] = ipj('-d', 'link', 'show', 'vp0.42');
    expect(l.info?.vlan).toMatchObject({ id: 42, protocol: 0x88a8 });
    expect(j.linkinfo.info_data).toMatchObject({ protocol: '802.1ad', id: 42 });
    expect(l.link).toBe((await byName('vp0')).index);
    await rt.deleteLink('vp0');
  });

  it(`creates a bond with upstream's settings and enslaves a link`, async () => {
    if (await refusedWhenMissing('bond')) return;
    const bond = {
      mode: 4,
      miimon: 100,
      updelay: 200,
      downdelay: 200,
      xmitHashPolicy: 1,
      lacpRate: 1,
      minLinks: 1,
    };
    await rt.createLink({ name: 'bd0', kind: 'bond', bond });
    const l = await byName('bd0');
    expect(l.info?.bond).toMatchObject(bond);
    const [j] = ipj('-d', 'link', 'show', 'bd0');
    expect(j.linkinfo.info_data).toMatchObject({
      mode: '802.3ad',
      miimon: 100,
      updelay: 200,
      downdelay: 200,
      xmit_hash_policy: 'layer3+4',
      ad_lacp_rate: 'fast',
    });
    await rt.createLink({ name: 'bs0', kind: 'veth', peer: 'bs1' });
    await rt.setLink('bs0', { master: 'bd0' });
    const s = await byName('bs0');
    expect(s.master).toBe(l.index);
    expect(s.info?.slaveKind).toBe('bond');
    await rt.deleteLink('bd0');
    await rt.deleteLink('bs0');
  });

  it(`creates a bridge with STP and VLAN filtering; enslaves and releases a veth`, async () => {
    // VLAN filtering only where the kernel has it (CONFIG_BRIDGE_VLAN_FILTERING)
    await rt.createLink({
      name: 'br0',
      kind: 'bridge',
      bridge: { stp: true, ...(vlanFiltering ? { vlanFiltering: true } : {}) },
    });
    const br = await byName('br0');
    expect(br.info?.bridge).toMatchObject({ stp: true, vlanFiltering: vlanFiltering });
    const [j] = ipj('-d', 'link', 'show', 'br0');
    expect(j.linkinfo.info_data).toMatchObject({ stp_state: 1, vlan_filtering: vlanFiltering ? 1 : 0 });

    await rt.createLink({ name: 've0', kind: 'veth', peer: { name: 've1', mtu: 9000 } });
    const [v0, v1] = [await byName('ve0'), await byName('ve1')];
    expect(v0.info?.kind).toBe('veth');
    expect(v1.mtu).toBe(9000);
    expect(v0.link).toBe(v1.index); // a veth's IFLA_LINK is its peer
    expect(ipj('link', 'show', 've0')[0].link).toBe('ve1');

    await rt.setLink('ve0', { master: 'br0', up: true, mtu: 1450, address: '02:00:00:00:0a:0b' });
    let s = await byName('ve0');
    expect(s).toMatchObject({
      master: br.index,
      mtu: 1450,
      address: '02:00:00:00:0a:0b',
      info: { slaveKind: 'bridge' },
    });
    expect(s.flags & C.IFF_UP).toBeTruthy();
    expect(ipj('link', 'show', 've0')[0]).toMatchObject({
      master: 'br0',
      mtu: 1450,
      address: '02:00:00:00:0a:0b',
    });

    await rt.setLink(s.index, { master: null, up: false });
    s = await byName('ve0');
    expect(s.master).toBeUndefined();
    expect(s.flags & C.IFF_UP).toBe(0);
    expect(ipj('link', 'show', 've0')[0].master).toBeUndefined();
    await rt.deleteLink('ve0');
    expect(await rt.linkByName('ve1')).toBeUndefined(); // the peer went with it
    await rt.deleteLink('br0');
  });

  it('agrees with ip -j link show on every link', async () => {
    ip('link', 'add', 'cx0', 'type', 'bridge');
    ip('link', 'add', 'cx1', 'type', 'veth', 'peer', 'name', 'cx2');
    ip('link', 'set', 'cx1', 'master', 'cx0');
    const mine = (await rt.listLinks()).map((l) => ({
      ifindex: l.index,
      ifname: l.name,
      mtu: l.mtu,
      address: l.address,
      operstate: l.operState === C.IF_OPER_UP ? 'UP' : l.operState === C.IF_OPER_DOWN ? 'DOWN' : 'UNKNOWN',
      txqlen: l.txqlen,
    }));
    const theirs = ipj('link', 'show').map((j) => ({
      ifindex: j.ifindex,
      ifname: j.ifname,
      mtu: j.mtu,
      address: j.address,
      operstate: j.operstate,
      txqlen: j.txqlen,
    }));
    expect(mine).toEqual(theirs);
    ip('link', 'del', 'cx1');
    ip('link', 'del', 'cx0');
  });

  it('names the call and errno of a refusal: EEXIST, ENODEV, EINVAL', async () => {
    await rt.createLink({ name: 'er0', kind: 'bridge' });
    const exists = await caught(rt.createLink({ name: 'er0', kind: 'bridge' }));
    expect(isNetlinkError(exists, 'EEXIST')).toBe(true);
    expect(isSysError(exists, 'EEXIST')).toBe(true);
    expect(String(exists)).toMatch(/^NetlinkError: createLink\("er0"\): EEXIST/);

    const nodev = await caught(rt.setLink('nope0', { up: true }));
    expect(String(nodev)).toMatch(/^NetlinkError: setLink\("nope0"\): ENODEV/);
    const nodel = await caught(rt.deleteLink(9999));
    expect(String(nodel)).toMatch(/^NetlinkError: deleteLink\(9999\): ENODEV/);
    const noparent = await caught(rt.createLink({ name: 'v9', kind: 'vlan', parent: 'nope0', id: 9 }));
    expect(String(noparent)).toMatch(/^NetlinkError: createLink\("v9"\): ENODEV .*no link named "nope0"/);

    const inval = await caught(rt.setLink('er0', { mtu: 10 }));
    expect(isNetlinkError(inval, 'EINVAL')).toBe(true);
    expect(String(inval)).toMatch(/^NetlinkError: setLink\("er0"\): EINVAL/);
    await rt.deleteLink('er0');
  });

  it('dumps 200 links completely, made by as many requests in flight at once', async () => {
    const kind = CHEAP;
    const names = Array.from({ length: 200 }, (_, i) => `many${i}`);
    const t0 = performance.now();
    // through the socket itself: ifb is no kind the typed layer makes
    const make = (name: string) =>
      rt.socket.request(C.RTM_NEWLINK, C.NLM_F_CREATE | C.NLM_F_EXCL, encodeLink({ name, info: { kind } }));
    await Promise.all(names.map(make));
    const made = performance.now() - t0;
    const t1 = performance.now();
    const links = await rt.listLinks();
    const listed = performance.now() - t1;
    console.log(`200 ${kind} links: created in ${made.toFixed(0)} ms, dumped in ${listed.toFixed(1)} ms`);
    expect(links.filter((l) => l.name?.startsWith('many')).map((l) => l.name)).toEqual(names);
    expect(links).toHaveLength(ipj('link', 'show').length);
    await Promise.all(names.map((n) => rt.deleteLink(n)));
    expect((await rt.listLinks()).filter((l) => l.name?.startsWith('many'))).toHaveLength(0);
  });
});

describe('addresses and routes', () => {
  let idx = 0;
  it('adds, lists and deletes addresses, checked against ip -j addr', async () => {
    await rt.createLink({ name: 'ad0', kind: 'veth', peer: 'ad1', up: true });
    idx = (await byName('ad0')).index;
    await rt.addAddress({ link: 'ad0', address: '192.0.2.10/24', broadcast: true, label: 'ad0:lbl' });
    await rt.addAddress({ link: idx, address: '2001:db8:1::10/64', flags: C.IFA_F_NODAD });
    await rt.addAddress({ link: idx, address: '10.9.0.1/16', validLifetime: 3600, preferredLifetime: 1800 });
    const mine = await rt.listAddresses({ link: 'ad0' });
    const v4 = mine.find((a) => a.local === '192.0.2.10');
    expect(v4).toMatchObject({
      family: 2,
      prefixLen: 24,
      broadcast: '192.0.2.255',
      label: 'ad0:lbl',
      index: idx,
      scope: 0,
    });
    expect(v4!.flags & C.IFA_F_PERMANENT).toBeTruthy();
    const v6 = mine.find((a) => a.address === '2001:db8:1::10');
    expect(v6).toMatchObject({ family: 10, prefixLen: 64 });
    expect(v6!.flags & C.IFA_F_NODAD).toBeTruthy();
    expect(mine.find((a) => a.local === '10.9.0.1')?.cacheInfo).toMatchObject({
      valid: 3600,
      preferred: 1800,
    });

    const [j] = ipj('addr', 'show', 'dev', 'ad0');
    const theirs = j.addr_info
      .map((a: { local: string; prefixlen: number }) => `${a.local}/${a.prefixlen}`)
      .sort();
    const ours = mine.map((a) => `${a.local ?? a.address}/${a.prefixLen}`).sort();
    expect(ours).toEqual(theirs);
    expect(j.addr_info.find((a: { local: string }) => a.local === '192.0.2.10')).toMatchObject({
      broadcast: '192.0.2.255',
      label: 'ad0:lbl',
    });
    expect((await rt.listAddresses({ family: 10 })).every((a) => a.family === 10)).toBe(true);

    const dup = await caught(rt.addAddress({ link: 'ad0', address: '192.0.2.10/24' }));
    expect(String(dup)).toMatch(/^NetlinkError: addAddress\("ad0", "192.0.2.10\/24"\): EEXIST/);
    await rt.addAddress({ link: 'ad0', address: '192.0.2.10/24', replace: true, label: 'ad0:lbl' });

    await rt.deleteAddress({ link: 'ad0', address: '10.9.0.1/16' });
    expect((await rt.listAddresses({ link: idx })).some((a) => a.local === '10.9.0.1')).toBe(false);
    const gone = await caught(rt.deleteAddress({ link: 'ad0', address: '10.9.0.1/16' }));
    expect(isNetlinkError(gone, 'EADDRNOTAVAIL')).toBe(true);
    const nodev = await caught(rt.addAddress({ link: 'nope0', address: '10.0.0.1/8' }));
    expect(String(nodev)).toMatch(/^NetlinkError: addAddress\("nope0", "10.0.0.1\/8"\): ENODEV/);
  });

  it('adds a default route with a metric, an on-link route, and a route in another table', async () => {
    await rt.addRoute({ gateway: '192.0.2.1', oif: 'ad0', priority: 100, protocol: C.RTPROT_STATIC });
    await rt.addRoute({ dst: '198.51.100.0/24', oif: 'ad0', mtu: 1400 }); // scope link: no gateway
    await rt.addRoute({ dst: '203.0.113.0/24', gateway: '192.0.2.254', table: 100, prefsrc: '192.0.2.10' });
    await rt.addRoute({ dst: '10.20.0.0/16', gateway: '172.16.0.1', oif: 'ad0', onlink: true, table: 1000 });
    await rt.addRoute({ dst: '2001:db8:2::/48', gateway: '2001:db8:1::1', oif: 'ad0', priority: 512 });

    const main = await rt.listRoutes({ family: 2, table: C.RT_TABLE_MAIN });
    const def = main.find((r) => routePrefix(r) === 'default');
    expect(def).toMatchObject({
      gateway: '192.0.2.1',
      oif: idx,
      priority: 100,
      protocol: C.RTPROT_STATIC,
      table: 254,
      scope: 0,
      type: C.RTN_UNICAST,
    });
    const onlink = main.find((r) => routePrefix(r) === '198.51.100.0/24');
    expect(onlink).toMatchObject({
      scope: C.RT_SCOPE_LINK,
      oif: idx,
      metrics: { mtu: 1400 },
      protocol: C.RTPROT_BOOT,
    });
    expect(onlink!.gateway).toBeUndefined();
    const t100 = await rt.listRoutes({ table: 100 });
    expect(t100.map((r) => [routePrefix(r), r.gateway, r.prefsrc])).toEqual([
      ['203.0.113.0/24', '192.0.2.254', '192.0.2.10'],
    ]);
    const t1000 = await rt.listRoutes({ table: 1000 });
    expect(t1000[0]).toMatchObject({ dst: '10.20.0.0', gateway: '172.16.0.1', table: 1000 });
    expect(t1000[0]!.flags & C.RTNH_F_ONLINK).toBeTruthy();
    const v6 = (await rt.listRoutes({ family: 10 })).find((r) => routePrefix(r) === '2001:db8:2::/48');
    expect(v6).toMatchObject({ gateway: '2001:db8:1::1', priority: 512, table: 254 });

    // the same routes as iproute2 sees them, every table
    const key = (dst: string, gw: string | undefined, table: number) => `${dst} ${gw ?? '-'} ${table}`;
    const tableNo = (t: string | undefined) =>
      t === undefined || t === 'main' ? 254 : t === 'local' ? 255 : Number(t);
    const theirs = [
      ...ipj('-4', 'route', 'show', 'table', 'all'),
      ...ipj('-6', 'route', 'show', 'table', 'all'),
    ]
      .filter((r) => r.type !== 'multicast' && !(r.dst ?? '').startsWith('ff00::'))
      .map((r) =>
        key(
          r.dst === 'default'
            ? 'default'
            : r.dst.includes('/')
              ? r.dst
              : `${r.dst}/${r.dst.includes(':') ? 128 : 32}`,
          r.gateway,
          tableNo(r.table),
        ),
      )
      .sort();
    const ours = (await rt.listRoutes())
      .filter((r) => r.type !== C.RTN_MULTICAST && !(r.dst ?? '').startsWith('ff00::'))
      .map((r) => key(routePrefix(r), r.gateway, r.table))
      .sort();
    expect(ours).toEqual(theirs);

    const dup = await caught(rt.addRoute({ gateway: '192.0.2.1', oif: 'ad0', priority: 100 }));
    expect(String(dup)).toMatch(/^NetlinkError: addRoute\("default"\): EEXIST/);
    await rt.replaceRoute({ gateway: '192.0.2.2', oif: 'ad0', priority: 100 });
    expect(
      (await rt.listRoutes({ family: 2, table: 254 })).find((r) => routePrefix(r) === 'default')?.gateway,
    ).toBe('192.0.2.2');
    const unreachable = await caught(rt.addRoute({ dst: '10.30.0.0/16', gateway: '172.31.0.1' }));
    expect(String(unreachable)).toMatch(/^NetlinkError: addRoute\("10.30.0.0\/16"\): ENETUNREACH/);

    await rt.deleteRoute({ priority: 100 });
    await rt.deleteRoute({ dst: '198.51.100.0/24' });
    await rt.deleteRoute({ dst: '203.0.113.0/24', table: 100 });
    await rt.deleteRoute({ dst: '10.20.0.0/16', table: 1000 });
    await rt.deleteRoute({ dst: '2001:db8:2::/48' });
    const none = await caught(rt.deleteRoute({ dst: '203.0.113.0/24', table: 100 }));
    expect(isNetlinkError(none, 'ESRCH')).toBe(true);
    expect(await rt.listRoutes({ table: 100 })).toEqual([]);
    expect(ip('route', 'show', 'table', 'main').trim()).toBe(
      '192.0.2.0/24 dev ad0 proto kernel scope link src 192.0.2.10 linkdown',
    );
    await rt.deleteLink('ad0');
  });
});
