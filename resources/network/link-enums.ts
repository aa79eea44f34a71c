// Link enums as the kernel numbers them (ARPHRD_*, IF_OPER_*, IFF_*), with upstream's text forms.
import { defineEnum, defineFlags } from './enum.js';

/** LinkType is an ARPHRD_* hardware type; the common ones are named here, all in LinkTypes. */
export type LinkType = number;
export const LinkType = {
  Netrom: 0,
  Ether: 1,
  Infiniband: 32,
  Loopback: 772,
  Sit: 776,
  Gre: 778,
  None: 65534,
  Void: 65535,
} as const;

export const LinkTypes = defineEnum('LinkType', {
  0: 'netrom',
  1: 'ether',
  2: 'eether',
  3: 'ax25',
  4: 'pronet',
  5: 'chaos',
  6: 'ieee802',
  7: 'arcnet',
  8: 'atalk',
  15: 'dlci',
  19: 'atm',
  23: 'metricom',
  24: 'ieee1394',
  27: 'eui64',
  32: 'infiniband',
  256: 'slip',
  257: 'cslip',
  258: 'slip6',
  259: 'cslip6',
  260: 'rsrvd',
  264: 'adapt',
  270: 'rose',
  271: 'x25',
  272: 'hwx25',
  280: 'can',
  512: 'ppp',
  513: 'cisco',
  516: 'lapb',
  517: 'ddcmp',
  518: 'rawhdlc',
  768: 'ipip',
  769: 'tunnel6',
  770: 'frad',
  771: 'skip',
  772: 'loopback',
  773: 'localtlk',
  774: 'fddi',
  775: 'bif',
  776: 'sit',
  777: 'ip/ddp',
  778: 'gre',
  779: 'pimreg',
  780: 'hippi',
  781: 'ash',
  782: 'econet',
  783: 'irda',
  784: 'fcpp',
  785: 'fcal',
  786: 'fcpl',
  787: 'fcfb_0',
  788: 'fcfb_1',
  789: 'fcfb_2',
  790: 'fcfb_3',
  791: 'fcfb_4',
  792: 'fcfb_5',
  793: 'fcfb_6',
  794: 'fcfb_7',
  795: 'fcfb_8',
  796: 'fcfb_9',
  797: 'fcfb_10',
  798: 'fcfb_11',
  799: 'fcfb_12',
  800: 'tr',
  801: 'ieee802.11',
  802: 'ieee802.11_prism',
  803: 'ieee802.11_radiotap',
  804: 'ieee802.15.4',
  805: 'ieee802.15.4_monitor',
  820: 'phonet',
  821: 'phonet_pipe',
  822: 'caif',
  823: 'ip6gre',
  824: 'netlink',
  825: '6lowpan',
  65534: 'nohdr',
  65535: 'void',
});

/** OperationalState is RFC 2863's IF_OPER_* as the kernel reports it. */
export type OperationalState = number;
export const OperationalState = {
  Unknown: 0,
  NotPresent: 1,
  Down: 2,
  LowerLayerDown: 3,
  Testing: 4,
  Dormant: 5,
  Up: 6,
} as const;
export const OperationalStates = defineEnum('OperationalState', {
  0: 'unknown',
  1: 'notPresent',
  2: 'down',
  3: 'lowerLayerDown',
  4: 'testing',
  5: 'dormant',
  6: 'up',
});

/** LinkFlags is the IFF_* bitmask of a link. */
export type LinkFlags = number;
export const LinkFlag = {
  Up: 1,
  Broadcast: 2,
  Debug: 4,
  Loopback: 8,
  PointToPoint: 16,
  NoTrailers: 32,
  Running: 64,
  NoArp: 128,
  Promisc: 256,
  AllMulti: 512,
  Master: 1024,
  Slave: 2048,
  Multicast: 4096,
  Portsel: 8192,
  AutoMedia: 16384,
  Dynamic: 32768,
  LowerUp: 65536,
  Dormant: 131072,
  Echo: 262144,
} as const;
export const LinkFlagSet = defineFlags('LinkFlag', {
  1: 'UP',
  2: 'BROADCAST',
  4: 'DEBUG',
  8: 'LOOPBACK',
  16: 'POINTTOPOINT',
  32: 'NOTRAILERS',
  64: 'RUNNING',
  128: 'NOARP',
  256: 'PROMISC',
  512: 'ALLMULTI',
  1024: 'MASTER',
  2048: 'SLAVE',
  4096: 'MULTICAST',
  8192: 'PORTSEL',
  16384: 'AUTOMEDIA',
  32768: 'DYNAMIC',
  65536: 'LOWER_UP',
  131072: 'DORMANT',
  262144: 'ECHO',
});

/** Port is ethtool's PORT_* connector type (the text form of 3, fibre, is empty upstream). */
export type Port = number;
export const Ports = defineEnum('Port', {
  0: 'TwistedPair',
  1: 'AUI',
  2: 'MII',
  3: '',
  4: 'BNC',
  5: 'DirectAttach',
  239: 'None',
  255: 'Other',
});

/** Duplex is ethtool's DUPLEX_*. */
export type Duplex = number;
export const Duplexes = defineEnum('Duplex', { 0: 'Half', 1: 'Full', 255: 'Unknown' });

/** VLANProtocol is the VLAN's ethertype. */
export type VLANProtocol = number;
export const VLANProtocol = { Q8021: 0x8100, AD8021: 0x88a8 } as const;
export const VLANProtocols = defineEnum('VLANProtocol', { 33024: '802.1q', 34984: '802.1ad' });
