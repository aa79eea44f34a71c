// TimeServerStatuses.net.talos.dev: the NTP servers in effect (`talosctl get timeservers`).
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { obj, strs } from './yaml-read.js';

export interface TimeServerStatusSpec {
  ntpServers: string[];
}

export const TimeServerStatus = defineResource<TimeServerStatusSpec>({
  type: 'TimeServerStatuses.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  aliases: ['timeserver', 'timeservers'],
  printColumns: [{ name: 'Timeservers', jsonPath: '{.timeServers}' }],
  empty: () => ({ ntpServers: [] }),
  copy: (s) => ({ ntpServers: [...s.ntpServers] }),
  equal: (a, b) =>
    a.ntpServers.length === b.ntpServers.length && a.ntpServers.every((x, i) => x === b.ntpServers[i]),
  proto: { ntpServers: { no: 1, kind: 'string', repeated: true } },
  fromProto: (v) => ({ ntpServers: strs(v.ntpServers) }),
  toYAML: (s) => ({ timeServers: s.ntpServers }),
  fromYAML: (v) => ({ ntpServers: strs(obj(v).timeServers) }),
});
export type TimeServerStatus = ResourceOf<typeof TimeServerStatus>;
