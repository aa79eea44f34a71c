// HostnameSpecs.net.talos.dev: the hostname and domain the config wants, from one layer.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { ConfigLayer, configLayerOf, configLayerText } from './config-layer.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { num, obj, str } from './yaml-read.js';

/** HostnameSpecSpec: the FQDN is hostname.domainname. */
export interface HostnameSpecSpec {
  hostname: string;
  domainname: string;
  configLayer: ConfigLayer;
}

export const HostnameSpec = defineResource<HostnameSpecSpec>({
  type: 'HostnameSpecs.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  empty: () => ({ hostname: '', domainname: '', configLayer: ConfigLayer.Default }),
  copy: (s) => ({ hostname: s.hostname, domainname: s.domainname, configLayer: s.configLayer }),
  equal: (a, b) =>
    a.hostname === b.hostname && a.domainname === b.domainname && a.configLayer === b.configLayer,
  proto: {
    hostname: { no: 1, kind: 'string' },
    domainname: { no: 2, kind: 'string' },
    configLayer: { no: 3, kind: 'enum' },
  },
  fromProto: (v) => ({
    hostname: str(v.hostname),
    domainname: str(v.domainname),
    configLayer: num(v.configLayer) as ConfigLayer,
  }),
  toYAML: (s) => ({ hostname: s.hostname, domainname: s.domainname, layer: configLayerText(s.configLayer) }),
  fromYAML: (v) => {
    const o = obj(v);
    return { hostname: str(o.hostname), domainname: str(o.domainname), configLayer: configLayerOf(o.layer) };
  },
});
export type HostnameSpec = ResourceOf<typeof HostnameSpec>;

/** hostnameSpecFQDN is hostname.domainname, or the bare hostname. */
export const hostnameSpecFQDN = (s: HostnameSpecSpec): string =>
  s.domainname ? `${s.hostname}.${s.domainname}` : s.hostname;

/** validateHostnameSpec gives upstream's reason a spec cannot be applied, or undefined when it can. */
export function validateHostnameSpec(s: HostnameSpecSpec): string | undefined {
  if (s.hostname.length === 0 || s.hostname.length > 63)
    return `invalid hostname ${JSON.stringify(s.hostname)}`;
  const fqdn = hostnameSpecFQDN(s);
  if (fqdn.length > 253) return `fqdn is too long: ${fqdn.length}`;
  return undefined;
}

/** parseFQDN splits at the first dot: `a.b.c` is hostname `a` in domain `b.c`. */
export function parseFQDN(fqdn: string): { hostname: string; domainname: string } {
  const dot = fqdn.indexOf('.');
  return dot < 0
    ? { hostname: fqdn, domainname: '' }
    : { hostname: fqdn.slice(0, dot), domainname: fqdn.slice(dot + 1) };
}
