// OperatorSpecs.net.talos.dev: an operator (DHCP4, DHCP6 or a VIP) the config wants running on a link.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { ConfigLayer, configLayerOf, configLayerText } from './config-layer.js';
import { defineEnum, enumOf } from './enum.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { ipMessage, ipOfMessage, netIP } from './wire.js';
import { bool, num, obj, str } from './yaml-read.js';

export type Operator = number;
export const Operator = { DHCP4: 0, DHCP6: 1, VIP: 2 } as const;
export const Operators = defineEnum('Operator', { 0: 'dhcp4', 1: 'dhcp6', 2: 'vip' });

/** ClientIdentifier is what a DHCP client sends as its id: none, the MAC or a DUID. */
export type ClientIdentifier = number;
export const ClientIdentifier = { None: 0, MAC: 1, DUID: 2 } as const;
export const ClientIdentifiers = defineEnum('ClientIdentifier', { 0: 'none', 1: 'mac', 2: 'duid' });

export interface ClientIdentifierSpec {
  clientIdentifier: number;
  duidRawHex: string;
}
export interface DHCP4OperatorSpec {
  routeMetric: number;
  skipHostnameRequest: boolean;
  clientIdentifier: ClientIdentifierSpec;
}
export type DHCP6OperatorSpec = DHCP4OperatorSpec;
export interface VIPEquinixMetalSpec {
  projectID: string;
  deviceID: string;
  apiToken: string;
}
export interface VIPHCloudSpec {
  deviceID: number;
  networkID: number;
  apiToken: string;
}
/** VIPOperatorSpec: the shared IP (as text) and the cloud APIs that move it. */
export interface VIPOperatorSpec {
  ip: string;
  gratuitousARP: boolean;
  equinixMetal: VIPEquinixMetalSpec;
  hcloud: VIPHCloudSpec;
}

export interface OperatorSpecSpec {
  operator: Operator;
  linkName: string;
  requireUp: boolean;
  dhcp4: DHCP4OperatorSpec;
  dhcp6: DHCP6OperatorSpec;
  vip: VIPOperatorSpec;
  configLayer: ConfigLayer;
}

const dhcpZero = (): DHCP4OperatorSpec => ({
  routeMetric: 0,
  skipHostnameRequest: false,
  clientIdentifier: { clientIdentifier: 0, duidRawHex: '' },
});

export const operatorSpecZero = (): OperatorSpecSpec => ({
  operator: Operator.DHCP4,
  linkName: '',
  requireUp: false,
  dhcp4: dhcpZero(),
  dhcp6: dhcpZero(),
  vip: {
    ip: '',
    gratuitousARP: false,
    equinixMetal: { projectID: '', deviceID: '', apiToken: '' },
    hcloud: { deviceID: 0, networkID: 0, apiToken: '' },
  },
  configLayer: ConfigLayer.Default,
});

const copyDHCP = (d: DHCP4OperatorSpec): DHCP4OperatorSpec => ({
  ...d,
  clientIdentifier: { ...d.clientIdentifier },
});
const equalDHCP = (a: DHCP4OperatorSpec, b: DHCP4OperatorSpec): boolean =>
  a.routeMetric === b.routeMetric &&
  a.skipHostnameRequest === b.skipHostnameRequest &&
  a.clientIdentifier.clientIdentifier === b.clientIdentifier.clientIdentifier &&
  a.clientIdentifier.duidRawHex === b.clientIdentifier.duidRawHex;

const copyOperatorSpec = (s: OperatorSpecSpec): OperatorSpecSpec => ({
  ...s,
  dhcp4: copyDHCP(s.dhcp4),
  dhcp6: copyDHCP(s.dhcp6),
  vip: { ...s.vip, equinixMetal: { ...s.vip.equinixMetal }, hcloud: { ...s.vip.hcloud } },
});

/** operatorSpecEqualIgnoringLayer is upstream's OperatorSpecSpec.Equal: the layer does not count. */
export const operatorSpecEqualIgnoringLayer = (a: OperatorSpecSpec, b: OperatorSpecSpec): boolean =>
  a.operator === b.operator &&
  a.linkName === b.linkName &&
  a.requireUp === b.requireUp &&
  equalDHCP(a.dhcp4, b.dhcp4) &&
  equalDHCP(a.dhcp6, b.dhcp6) &&
  a.vip.ip === b.vip.ip &&
  a.vip.gratuitousARP === b.vip.gratuitousARP &&
  a.vip.equinixMetal.projectID === b.vip.equinixMetal.projectID &&
  a.vip.equinixMetal.deviceID === b.vip.equinixMetal.deviceID &&
  a.vip.equinixMetal.apiToken === b.vip.equinixMetal.apiToken &&
  a.vip.hcloud.deviceID === b.vip.hcloud.deviceID &&
  a.vip.hcloud.networkID === b.vip.hcloud.networkID &&
  a.vip.hcloud.apiToken === b.vip.hcloud.apiToken;

const CLIENT_ID_SCHEMA = {
  clientIdentifier: { no: 1, kind: 'enum' },
  duidRawHex: { no: 2, kind: 'string' },
} as const;

const dhcpOfProto = (v: unknown): DHCP4OperatorSpec => {
  const o = obj(v);
  const c = obj(o.clientIdentifier);
  return {
    routeMetric: num(o.routeMetric),
    skipHostnameRequest: bool(o.skipHostnameRequest),
    clientIdentifier: { clientIdentifier: num(c.clientIdentifier), duidRawHex: str(c.duidRawHex) },
  };
};

const clientIDIsZero = (c: ClientIdentifierSpec) => c.clientIdentifier === 0 && c.duidRawHex === '';
const dhcpIsZero = (d: DHCP4OperatorSpec) =>
  d.routeMetric === 0 && !d.skipHostnameRequest && clientIDIsZero(d.clientIdentifier);

const dhcpYAML = (d: DHCP4OperatorSpec) => ({
  routeMetric: d.routeMetric,
  ...(d.skipHostnameRequest ? { skipHostnameRequest: true } : {}),
  ...(clientIDIsZero(d.clientIdentifier)
    ? {}
    : {
        clientIdentifier: {
          clientIdentifier: ClientIdentifiers.text(d.clientIdentifier.clientIdentifier),
          ...(d.clientIdentifier.duidRawHex ? { duidRawHex: d.clientIdentifier.duidRawHex } : {}),
        },
      }),
});
const dhcpOfYAML = (v: unknown): DHCP4OperatorSpec => {
  const o = obj(v);
  const c = obj(o.clientIdentifier);
  return {
    routeMetric: num(o.routeMetric),
    skipHostnameRequest: bool(o.skipHostnameRequest),
    clientIdentifier: {
      clientIdentifier: enumOf(ClientIdentifiers, c.clientIdentifier),
      duidRawHex: str(c.duidRawHex),
    },
  };
};

// yaml.v3 counts a struct as empty when its exported fields are, and netip.Addr has none: a VIP
// with only an IP set is left out of the YAML upstream too
const vipIsZero = (v: VIPOperatorSpec) =>
  !v.gratuitousARP &&
  v.equinixMetal.projectID === '' &&
  v.equinixMetal.deviceID === '' &&
  v.equinixMetal.apiToken === '' &&
  v.hcloud.deviceID === 0 &&
  v.hcloud.networkID === 0 &&
  v.hcloud.apiToken === '';

const vipYAML = (v: VIPOperatorSpec) => {
  const em = v.equinixMetal;
  const hc = v.hcloud;
  return {
    ip: v.ip,
    gratuitousARP: v.gratuitousARP,
    ...(em.projectID || em.deviceID || em.apiToken ? { equinixMetal: { ...em } } : {}),
    ...(hc.deviceID || hc.networkID || hc.apiToken ? { hcloud: { ...hc } } : {}),
  };
};

export const OperatorSpec = defineResource<OperatorSpecSpec>({
  type: 'OperatorSpecs.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  sensitivity: 'sensitive',
  empty: operatorSpecZero,
  copy: copyOperatorSpec,
  equal: (a, b) => a.configLayer === b.configLayer && operatorSpecEqualIgnoringLayer(a, b),
  proto: {
    operator: { no: 1, kind: 'enum' },
    linkName: { no: 2, kind: 'string' },
    requireUp: { no: 3, kind: 'bool' },
    dhcp4: {
      no: 4,
      kind: 'message',
      schema: {
        routeMetric: { no: 1, kind: 'uint32' },
        skipHostnameRequest: { no: 2, kind: 'bool' },
        clientIdentifier: { no: 3, kind: 'message', schema: CLIENT_ID_SCHEMA },
      },
    },
    dhcp6: {
      no: 5,
      kind: 'message',
      schema: {
        routeMetric: { no: 2, kind: 'uint32' },
        skipHostnameRequest: { no: 3, kind: 'bool' },
        clientIdentifier: { no: 4, kind: 'message', schema: CLIENT_ID_SCHEMA },
      },
    },
    vip: {
      no: 6,
      kind: 'message',
      schema: {
        ip: netIP(1),
        gratuitousARP: { no: 2, kind: 'bool' },
        equinixMetal: {
          no: 3,
          kind: 'message',
          schema: {
            projectID: { no: 1, kind: 'string' },
            deviceID: { no: 2, kind: 'string' },
            apiToken: { no: 3, kind: 'string' },
          },
        },
        hcloud: {
          no: 4,
          kind: 'message',
          schema: {
            deviceID: { no: 1, kind: 'int64' },
            networkID: { no: 2, kind: 'int64' },
            apiToken: { no: 3, kind: 'string' },
          },
        },
      },
    },
    configLayer: { no: 7, kind: 'enum' },
  },
  toProto: (s) => ({ ...s, vip: { ...s.vip, ip: ipMessage(s.vip.ip) } }),
  fromProto: (v) => {
    const vip = obj(v.vip);
    const em = obj(vip.equinixMetal);
    const hc = obj(vip.hcloud);
    return {
      operator: num(v.operator),
      linkName: str(v.linkName),
      requireUp: bool(v.requireUp),
      dhcp4: dhcpOfProto(v.dhcp4),
      dhcp6: dhcpOfProto(v.dhcp6),
      vip: {
        ip: ipOfMessage(vip.ip),
        gratuitousARP: bool(vip.gratuitousARP),
        equinixMetal: {
          projectID: str(em.projectID),
          deviceID: str(em.deviceID),
          apiToken: str(em.apiToken),
        },
        hcloud: { deviceID: num(hc.deviceID), networkID: num(hc.networkID), apiToken: str(hc.apiToken) },
      },
      configLayer: num(v.configLayer) as ConfigLayer,
    };
  },
  toYAML: (s) => ({
    operator: Operators.text(s.operator),
    linkName: s.linkName,
    requireUp: s.requireUp,
    ...(dhcpIsZero(s.dhcp4) ? {} : { dhcp4: dhcpYAML(s.dhcp4) }),
    ...(dhcpIsZero(s.dhcp6) ? {} : { dhcp6: dhcpYAML(s.dhcp6) }),
    ...(vipIsZero(s.vip) ? {} : { vip: vipYAML(s.vip) }),
    layer: configLayerText(s.configLayer),
  }),
  fromYAML: (v) => {
    const o = obj(v);
    const vip = obj(o.vip);
    const em = obj(vip.equinixMetal);
    const hc = obj(vip.hcloud);
    return {
      operator: enumOf(Operators, o.operator),
      linkName: str(o.linkName),
      requireUp: bool(o.requireUp),
      dhcp4: dhcpOfYAML(o.dhcp4),
      dhcp6: dhcpOfYAML(o.dhcp6),
      vip: {
        ip: str(vip.ip),
        gratuitousARP: bool(vip.gratuitousARP),
        equinixMetal: {
          projectID: str(em.projectID),
          deviceID: str(em.deviceID),
          apiToken: str(em.apiToken),
        },
        hcloud: { deviceID: num(hc.deviceID), networkID: num(hc.networkID), apiToken: str(hc.apiToken) },
      },
      configLayer: configLayerOf(o.layer),
    };
  },
});
export type OperatorSpec = ResourceOf<typeof OperatorSpec>;
