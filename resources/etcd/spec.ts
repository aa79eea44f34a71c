// EtcdSpecs.etcd.talos.dev (`etcd`): the member this node runs — its name (the hostname), the addresses it
// advertises to peers and clients, and those it listens on.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { obj, str, strs } from '../network/yaml-read.js';
import { ETCD_NAMESPACE, stringMap } from './config.js';

export const ETCD_SPEC_ID = 'etcd';

export interface EtcdSpecSpec {
  name: string;
  advertisedAddresses: string[];
  listenPeerAddresses: string[];
  listenClientAddresses: string[];
  image: string;
  extraArgs: Record<string, string>;
}

export const EtcdSpec = defineResource<EtcdSpecSpec>({
  type: 'EtcdSpecs.etcd.talos.dev',
  defaultNamespace: ETCD_NAMESPACE,
  empty: () => ({
    name: '',
    advertisedAddresses: [],
    listenPeerAddresses: [],
    listenClientAddresses: [],
    image: '',
    extraArgs: {},
  }),
  fromYAML: (v) => {
    const o = obj(v);
    return {
      name: str(o.name),
      advertisedAddresses: strs(o.advertisedAddresses),
      listenPeerAddresses: strs(o.listenPeerAddresses),
      listenClientAddresses: strs(o.listenClientAddresses),
      image: str(o.image),
      extraArgs: stringMap(o.extraArgs),
    };
  },
});
export type EtcdSpec = ResourceOf<typeof EtcdSpec>;
