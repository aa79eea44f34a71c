// EtcdConfigs.etcd.talos.dev (`etcd`): what the machine config says about etcd on a control-plane node —
// extra arguments, and the subnets its advertised and listen addresses are picked from (VIPs excluded).
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { obj, str, strs } from '../network/yaml-read.js';

export const ETCD_NAMESPACE = 'etcd';
export const ETCD_CONFIG_ID = 'etcd';

export interface EtcdConfigSpec {
  advertiseValidSubnets: string[];
  advertiseExcludeSubnets: string[];
  listenValidSubnets: string[];
  listenExcludeSubnets: string[];
  /** upstream's container image; Keel runs the etcd it ships and keeps the name for what reads it */
  image: string;
  extraArgs: Record<string, string>;
}

export const stringMap = (v: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(obj(v)).map(([k, x]) => [k, str(x)]));

export const EtcdConfig = defineResource<EtcdConfigSpec>({
  type: 'EtcdConfigs.etcd.talos.dev',
  defaultNamespace: ETCD_NAMESPACE,
  empty: () => ({
    advertiseValidSubnets: [],
    advertiseExcludeSubnets: [],
    listenValidSubnets: [],
    listenExcludeSubnets: [],
    image: '',
    extraArgs: {},
  }),
  fromYAML: (v) => {
    const o = obj(v);
    return {
      advertiseValidSubnets: strs(o.advertiseValidSubnets),
      advertiseExcludeSubnets: strs(o.advertiseExcludeSubnets),
      listenValidSubnets: strs(o.listenValidSubnets),
      listenExcludeSubnets: strs(o.listenExcludeSubnets),
      image: str(o.image),
      extraArgs: stringMap(o.extraArgs),
    };
  },
});
export type EtcdConfig = ResourceOf<typeof EtcdConfig>;
