// TimeServerSpecs.net.talos.dev: NTP servers the config wants, from one layer.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { ConfigLayer, configLayerOf, configLayerText } from './config-layer.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { num, obj, strs } from './yaml-read.js';

export const TIME_SERVER_ID = 'timeservers';

/** TimeServerSpecSpec: servers by name or address. */
export interface TimeServerSpecSpec {
  ntpServers: string[];
  configLayer: ConfigLayer;
}

export const TimeServerSpec = defineResource<TimeServerSpecSpec>({
  type: 'TimeServerSpecs.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  empty: () => ({ ntpServers: [], configLayer: ConfigLayer.Default }),
  copy: (s) => ({ ntpServers: [...s.ntpServers], configLayer: s.configLayer }),
  equal: (a, b) =>
    a.configLayer === b.configLayer &&
    a.ntpServers.length === b.ntpServers.length &&
    a.ntpServers.every((x, i) => x === b.ntpServers[i]),
  proto: { ntpServers: { no: 1, kind: 'string', repeated: true }, configLayer: { no: 2, kind: 'enum' } },
  fromProto: (v) => ({ ntpServers: strs(v.ntpServers), configLayer: num(v.configLayer) as ConfigLayer }),
  toYAML: (s) => ({ timeServers: s.ntpServers, layer: configLayerText(s.configLayer) }),
  fromYAML: (v) => {
    const o = obj(v);
    return { ntpServers: strs(o.timeServers), configLayer: configLayerOf(o.layer) };
  },
});
export type TimeServerSpec = ResourceOf<typeof TimeServerSpec>;
