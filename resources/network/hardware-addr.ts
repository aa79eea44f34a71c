// HardwareAddresses.net.talos.dev: the MAC address of the node's first physical link.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { hardwareAddrBytes, hardwareAddrOf } from './wire.js';
import { obj, str } from './yaml-read.js';

export const FIRST_HARDWARE_ADDR_ID = 'first';

/** HardwareAddrSpec: the link's name and its address as `aa:bb:…` text. */
export interface HardwareAddrSpec {
  name: string;
  hardwareAddr: string;
}

export const HardwareAddr = defineResource<HardwareAddrSpec>({
  type: 'HardwareAddresses.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  empty: () => ({ name: '', hardwareAddr: '' }),
  copy: (s) => ({ name: s.name, hardwareAddr: s.hardwareAddr }),
  equal: (a, b) => a.name === b.name && a.hardwareAddr === b.hardwareAddr,
  proto: { name: { no: 1, kind: 'string' }, hardwareAddr: { no: 2, kind: 'bytes' } },
  toProto: (s) => ({ name: s.name, hardwareAddr: hardwareAddrBytes(s.hardwareAddr) }),
  fromProto: (v) => ({ name: str(v.name), hardwareAddr: hardwareAddrOf(v.hardwareAddr) }),
  toYAML: (s) => ({ name: s.name, hardwareAddr: s.hardwareAddr }),
  fromYAML: (v) => {
    const o = obj(v);
    return { name: str(o.name), hardwareAddr: hardwareAddrOf(o.hardwareAddr) };
  },
});
export type HardwareAddr = ResourceOf<typeof HardwareAddr>;
