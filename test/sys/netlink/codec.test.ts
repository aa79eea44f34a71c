// The rtnetlink codec against byte vectors built by a C program from the kernel's UAPI headers (struct
// nlmsghdr, ifinfomsg, ifaddrmsg, rtmsg, nlmsgerr; RTA_LENGTH/NLMSG_ALIGN), the way iproute2 builds its
// requests: each vector is what the encoder must produce, and what the decoder must read back.
import { describe, expect, it } from 'vitest';
import { isSysError } from '../../../src/sys/errno.js';
import * as C from '../../../src/sys/netlink/constants.js';
import {
  attrU32,
  broadcastOf,
  decodeAddress,
  decodeLink,
  decodeRoute,
  decodeRtnl,
  encodeAddress,
  encodeLink,
  encodeMessage,
  encodeRoute,
  ipBytes,
  ipString,
  type LinkAttrs,
  NetlinkError,
  nla,
  nlaNest,
  nlaU32,
  parseAttrs,
  parseDone,
  parseError,
  parseMessages,
  parsePrefix,
} from '../../../src/sys/netlink/index.js';

const hex = (s: string) => Buffer.from(s, 'hex');
const CREATE = C.NLM_F_REQUEST | C.NLM_F_ACK | C.NLM_F_CREATE | C.NLM_F_EXCL;
const link = (seq: number, m: LinkAttrs) => encodeMessage(C.RTM_NEWLINK, CREATE, seq, encodeLink(m));
const payload = (b: Buffer) => parseMessages(b)[0]!.data;

const V = {
  dummy:
    '44000000100005060100000000000000000000000000000001000000010000000b00030064756d6d793000000800040078050000100012800a00010064756d6d79000000',
  vlan: '5400000010000506020000000000000000000000000000000000000000000000080003007631300008000500020000002400128009000100766c616e0000000014000280060001000a0000000600050081000000',
  bond: '7c000000100005060300000000000000000000000000000000000000000000000a000300626f6e64300000005000128009000100626f6e6400000000400002800500010004000000080003006400000008000400c800000008000500c800000005000e000100000005001500010000000c00088008000000c0000209',
  bridge:
    '4c000000100005060400000000000000000000000000000000000000000000000800030062723000240012800b00010062726964676500001400028008000500010000000500070001000000',
  veth: '5800000010000506050000000000000000000000000000000000000000000000080003007665300030001280090001007665746800000000200002801c000180000000000000000000000000000000000800030076653100',
  addr4:
    '58000000140005060600000000000000021880000300000008000200c000020108000100c000020108000400c00002ff0b000300657468303a310000080008008000000014000600ffffffffffffffffd20400002e160000',
  route4:
    '5000000018000506070000000000000002000000fe0400010000000008000f00fe00000008000500c00002fe0800040003000000080006006400000008000700c00002010c0008800800020078050000',
  route6:
    '540000001800050508000000000000000a200000000300010000000008000f00e80300001400010020010db800000000000000000000000014000500fe8000000000000000000000000000010800040003000000',
  eexist:
    '3c000000020000030100000092100000efffffff340000001000050601000000921000001000010046696c6520657869737473000800020024000000',
  ack: '38000000020000000900000000000000000000001400000011000000090000000000000000000000000000000000000000000000aa000000',
  done: '14000000030002000a0000000000000000000000',
};

describe('netlink messages and attributes', () => {
  it('frames a header and splits a datagram of several messages, ignoring a cut tail', () => {
    const d = Buffer.concat([hex(V.dummy), hex(V.vlan), hex(V.done), hex(V.vlan).subarray(0, 30)]);
    const msgs = parseMessages(d);
    expect(msgs.map((m) => m.header.type)).toEqual([C.RTM_NEWLINK, C.RTM_NEWLINK, C.NLMSG_DONE]);
    expect(msgs[1]!.header).toEqual({ len: 0x54, type: 16, flags: 0x605, seq: 2, pid: 0 });
    expect(parseDone(msgs[2]!)).toEqual({ errno: 0 });
  });

  it('pads attributes to 4 bytes, marks nests NLA_F_NESTED, and stops at a malformed one', () => {
    const a = nla(3, Buffer.from('abcde'));
    expect(a.toString('hex')).toBe('0900030061626364650000' + '00');
    const n = nlaNest(18, [nlaU32(1, 7), nla(2, Buffer.alloc(0))]);
    expect(n.readUInt16LE(2)).toBe(18 | C.NLA_F_NESTED);
    const [outer] = parseAttrs(n);
    expect(outer).toMatchObject({ type: 18, nested: true });
    const inner = parseAttrs(outer!.data);
    expect(inner.map((x) => [x.type, x.data.length])).toEqual([
      [1, 4],
      [2, 0],
    ]);
    expect(attrU32(inner[0]!)).toBe(7);
    // a length running past the buffer ends the list without throwing
    const bad = Buffer.concat([nlaU32(1, 1), Buffer.from([0xff, 0x00, 0x02, 0x00, 0, 0])]);
    expect(parseAttrs(bad)).toHaveLength(1);
  });

  it('reads NLMSG_ERROR: the errno, the request it answers, the extended-ack text and offset', () => {
    const [m] = parseMessages(hex(V.eexist));
    const e = parseError(m!);
    expect(e).toEqual({
      errno: 17,
      request: { len: 52, type: C.RTM_NEWLINK, flags: 0x605, seq: 1, pid: 4242 },
      message: 'File exists',
      offset: 36,
    });
    const ack = parseError(parseMessages(hex(V.ack))[0]!);
    expect(ack.errno).toBe(0);
    expect(ack.request?.seq).toBe(9);
    const err = new NetlinkError('createLink', e.errno, ['br0'], e);
    expect(err).toBeInstanceOf(NetlinkError);
    expect(isSysError(err, 'EEXIST')).toBe(true);
    expect(err.code).toBe('EEXIST');
    expect(err.extAck).toBe('File exists');
    expect(String(err)).toMatch(/^NetlinkError: createLink\("br0"\): EEXIST \(.*\): File exists$/);
  });
});

describe('links', () => {
  it('encodes a dummy, brought up, with an MTU', () => {
    const b = link(1, {
      flags: C.IFF_UP,
      change: C.IFF_UP,
      name: 'dummy0',
      mtu: 1400,
      info: { kind: 'dummy' },
    });
    expect(b.toString('hex')).toBe(V.dummy);
    const l = decodeLink(payload(b));
    expect(l).toMatchObject({
      index: 0,
      flags: 1,
      change: 1,
      name: 'dummy0',
      mtu: 1400,
      info: { kind: 'dummy' },
    });
  });

  it('encodes a vlan on a parent with its id and protocol, big-endian', () => {
    const m = { name: 'v10', link: 2, info: { kind: 'vlan', vlan: { id: 10, protocol: C.ETH_P_8021Q } } };
    const b = link(2, m);
    expect(b.toString('hex')).toBe(V.vlan);
    expect(decodeLink(payload(b)).info?.vlan).toEqual({ id: 10, protocol: 0x8100 });
  });

  it('encodes a bond: 802.3ad, miimon, up/down delay, xmit hash policy, LACP rate, ARP targets', () => {
    const bond = {
      mode: 4,
      miimon: 100,
      updelay: 200,
      downdelay: 200,
      xmitHashPolicy: 1,
      lacpRate: 1,
      arpIpTargets: ['192.0.2.9'],
    };
    const b = link(3, { name: 'bond0', info: { kind: 'bond', bond } });
    expect(b.toString('hex')).toBe(V.bond);
    expect(decodeLink(payload(b)).info?.bond).toEqual(bond);
  });

  it('encodes a bridge with STP and VLAN filtering', () => {
    const b = link(4, { name: 'br0', info: { kind: 'bridge', bridge: { stp: true, vlanFiltering: true } } });
    expect(b.toString('hex')).toBe(V.bridge);
    expect(decodeLink(payload(b)).info?.bridge).toEqual({ stp: true, vlanFiltering: true });
  });

  it("encodes a veth with its peer's ifinfomsg and name inside VETH_INFO_PEER", () => {
    const b = link(5, { name: 've0', info: { kind: 'veth', veth: { peer: { name: 've1' } } } });
    expect(b.toString('hex')).toBe(V.veth);
    expect(decodeLink(payload(b)).info?.veth?.peer?.name).toBe('ve1');
  });

  it('decodes hardware addresses, operstate, carrier, alt names, and keeps unknown attributes raw', () => {
    const ifi = Buffer.alloc(16);
    ifi.writeUInt16LE(1, 2);
    ifi.writeInt32LE(7, 4);
    ifi.writeUInt32LE(C.IFF_UP | C.IFF_LOWER_UP, 8);
    const body = Buffer.concat([
      ifi,
      nla(C.IFLA_ADDRESS, hex('02aabbccddee')),
      nla(C.IFLA_BROADCAST, hex('ffffffffffff')),
      nla(C.IFLA_PERM_ADDRESS, hex('0200000000ff')),
      nla(C.IFLA_OPERSTATE, Buffer.from([C.IF_OPER_UP])),
      nla(C.IFLA_CARRIER, Buffer.from([1])),
      nlaU32(C.IFLA_TXQLEN, 1000),
      nlaU32(C.IFLA_MASTER, 5),
      nlaNest(C.IFLA_PROP_LIST, [
        nla(C.IFLA_ALT_IFNAME, Buffer.from('uplink0\0')),
        nla(C.IFLA_ALT_IFNAME, Buffer.from('x\0')),
      ]),
      nla(999, Buffer.from([1, 2, 3])),
      nlaNest(C.IFLA_LINKINFO, [
        nla(C.IFLA_INFO_KIND, Buffer.from('wat\0')),
        nla(C.IFLA_INFO_SLAVE_KIND, Buffer.from('bond\0')),
      ]),
    ]);
    const l = decodeLink(body);
    expect(l).toMatchObject({
      type: 1,
      index: 7,
      address: '02:aa:bb:cc:dd:ee',
      broadcast: 'ff:ff:ff:ff:ff:ff',
      permAddress: '02:00:00:00:00:ff',
      operState: C.IF_OPER_UP,
      carrier: true,
      txqlen: 1000,
      master: 5,
      altNames: ['uplink0', 'x'],
      info: { kind: 'wat', slaveKind: 'bond' },
    });
    expect(l.unknown.map((a) => [a.type, [...a.data]])).toEqual([[999, [1, 2, 3]]]);
  });
});

describe('addresses and routes', () => {
  it('encodes an IPv4 address with broadcast, label, all-32-bit flags and lifetimes', () => {
    const a = {
      family: 2,
      prefixLen: 24,
      flags: C.IFA_F_PERMANENT,
      scope: C.RT_SCOPE_UNIVERSE,
      index: 3,
      local: '192.0.2.1',
      address: '192.0.2.1',
      broadcast: '192.0.2.255',
      label: 'eth0:1',
      cacheInfo: { preferred: 0xffffffff, valid: 0xffffffff, created: 1234, updated: 5678 },
    };
    const b = encodeMessage(C.RTM_NEWADDR, CREATE, 6, encodeAddress(a));
    expect(b.toString('hex')).toBe(V.addr4);
    expect(decodeAddress(payload(b))).toEqual({ ...a, unknown: [] });
  });

  it('encodes a default route via a gateway with metric, preferred source and an MTU metric', () => {
    const r = {
      family: 2,
      table: C.RT_TABLE_MAIN,
      protocol: C.RTPROT_STATIC,
      type: C.RTN_UNICAST,
      gateway: '192.0.2.254',
      oif: 3,
      priority: 100,
      prefsrc: '192.0.2.1',
      metrics: { mtu: 1400 },
    };
    const b = encodeMessage(C.RTM_NEWROUTE, CREATE, 7, encodeRoute(r));
    expect(b.toString('hex')).toBe(V.route4);
    expect(decodeRoute(payload(b))).toMatchObject({ ...r, dstLen: 0, scope: 0, unknown: [] });
  });

  it('puts a table above 255 in RTA_TABLE only, and reads IPv6 prefixes as inet_ntop writes them', () => {
    const r = {
      family: 10,
      dstLen: 32,
      table: 1000,
      protocol: C.RTPROT_BOOT,
      type: C.RTN_UNICAST,
      dst: '2001:db8::',
      gateway: 'fe80::1',
      oif: 3,
    };
    const flags = C.NLM_F_REQUEST | C.NLM_F_ACK | C.NLM_F_CREATE | C.NLM_F_REPLACE;
    const b = encodeMessage(C.RTM_NEWROUTE, flags, 8, encodeRoute(r));
    expect(b.toString('hex')).toBe(V.route6);
    const got = decodeRtnl(parseMessages(b)[0]!);
    expect(got.kind === 'route' && got.route).toMatchObject({ ...r, table: 1000 });
  });

  it('formats and parses IPs like inet_ntop / inet_pton, and prefixes', () => {
    for (const ip of [
      '::',
      '::1',
      'fe80::1',
      '2001:db8::8:800:200c:417a',
      '::ffff:192.0.2.1',
      '2001:db8:0:1:1:1:1:1',
      '1:0:0:2::3',
    ])
      expect(ipString(ipBytes(ip))).toBe(ip);
    expect(ipString(ipBytes('2001:0db8:0000:0000:0001:0000:0000:0001'))).toBe('2001:db8::1:0:0:1');
    expect(ipBytes('10.1.2.3').toString('hex')).toBe('0a010203');
    expect(parsePrefix('10.0.0.5/8')).toEqual({ address: '10.0.0.5', prefixLen: 8, family: 2 });
    expect(parsePrefix('fd00::1')).toEqual({ address: 'fd00::1', prefixLen: 128, family: 10 });
    expect(() => parsePrefix('10.0.0.1/33')).toThrow(/prefix length/);
    expect(broadcastOf('192.0.2.1', 24)).toBe('192.0.2.255');
    expect(broadcastOf('10.0.0.1', 31)).toBe('10.0.0.1');
  });

  it('types messages by kind and never throws on short payloads', () => {
    const short = parseMessages(encodeMessage(C.RTM_NEWLINK, 0, 1, Buffer.alloc(3)))[0]!;
    expect(decodeRtnl(short).kind).toBe('other');
    const del = parseMessages(
      encodeMessage(C.RTM_DELADDR, 0, 1, encodeAddress({ family: 2, index: 4, local: '10.0.0.1' })),
    )[0]!;
    expect(decodeRtnl(del)).toMatchObject({
      kind: 'address',
      action: 'del',
      address: { index: 4, local: '10.0.0.1' },
    });
  });
});
