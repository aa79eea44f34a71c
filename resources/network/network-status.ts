// NetworkStatuses.net.talos.dev: whether addresses, connectivity, hostname and /etc files are ready.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { bool, obj } from './yaml-read.js';

export const NETWORK_STATUS_ID = 'status';

export interface NetworkStatusSpec {
  addressReady: boolean;
  connectivityReady: boolean;
  hostnameReady: boolean;
  etcFilesReady: boolean;
}

export const NetworkStatus = defineResource<NetworkStatusSpec>({
  type: 'NetworkStatuses.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  aliases: ['netstatus', 'netstatuses'],
  printColumns: [
    { name: 'Address', jsonPath: '{.addressReady}' },
    { name: 'Connectivity', jsonPath: '{.connectivityReady}' },
    { name: 'Hostname', jsonPath: '{.hostnameReady}' },
    { name: 'Etc', jsonPath: '{.etcFilesReady}' },
  ],
  empty: () => ({
    addressReady: false,
    connectivityReady: false,
    hostnameReady: false,
    etcFilesReady: false,
  }),
  copy: (s) => ({ ...s }),
  equal: (a, b) =>
    a.addressReady === b.addressReady &&
    a.connectivityReady === b.connectivityReady &&
    a.hostnameReady === b.hostnameReady &&
    a.etcFilesReady === b.etcFilesReady,
  proto: {
    addressReady: { no: 1, kind: 'bool' },
    connectivityReady: { no: 2, kind: 'bool' },
    hostnameReady: { no: 3, kind: 'bool' },
    etcFilesReady: { no: 4, kind: 'bool' },
  },
  toYAML: (s) => ({
    addressReady: s.addressReady,
    connectivityReady: s.connectivityReady,
    hostnameReady: s.hostnameReady,
    etcFilesReady: s.etcFilesReady,
  }),
  fromYAML: (v) => {
    const o = obj(v);
    return {
      addressReady: bool(o.addressReady),
      connectivityReady: bool(o.connectivityReady),
      hostnameReady: bool(o.hostnameReady),
      etcFilesReady: bool(o.etcFilesReady),
    };
  },
});
export type NetworkStatus = ResourceOf<typeof NetworkStatus>;
