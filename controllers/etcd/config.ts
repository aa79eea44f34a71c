// etcd.ConfigController: EtcdConfig `etcd` from the machine config, on control-plane nodes only —
// extraArgs, and the advertised and listen subnets (`!` marks an excluded one, as upstream).
import { MACHINE_CONFIG_ID, MachineConfig } from '../../resources/config/machine-config.js';
import { isControlPlane, MACHINE_TYPE_ID, MachineType } from '../../resources/config/machine-type.js';
import { ETCD_CONFIG_ID, EtcdConfig, type EtcdConfigSpec } from '../../resources/etcd/index.js';
import { accessors } from '../../src/config/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { configOf } from '../config/config-of.js';
import { destroyIfPresent } from '../internal/destroy-if-present.js';

export const ETCD_CONFIG_CONTROLLER = 'etcd.ConfigController';

export const EtcdConfigController = defineController({
  name: ETCD_CONFIG_CONTROLLER,
  inputs: [input(MachineConfig, { id: MACHINE_CONFIG_ID }), input(MachineType, { id: MACHINE_TYPE_ID })],
  outputs: [output(EtcdConfig, 'exclusive')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
      const type = await rt.getOrNull(MachineType, MACHINE_TYPE_ID, { signal });
      if (!cfg || !type || !isControlPlane(type.spec.type)) {
        await destroyIfPresent(rt, EtcdConfig.pointer(ETCD_CONFIG_ID), { signal });
      } else {
        const next = etcdConfigOf(accessors(configOf(cfg.spec)).cluster().etcd ?? {});
        await rt.modify(EtcdConfig, ETCD_CONFIG_ID, () => next, { signal });
      }
      rt.resetBackoff();
    }
  },
});

/** etcdConfigOf splits the subnets into valid and excluded ones (a leading `!` excludes). */
export function etcdConfigOf(etcd: {
  image?: string;
  extraArgs?: Record<string, string>;
  advertisedSubnets?: string[];
  listenSubnets?: string[];
}): EtcdConfigSpec {
  const split = (subnets: readonly string[] = []) => ({
    valid: subnets.filter((s) => !s.startsWith('!')),
    exclude: subnets.filter((s) => s.startsWith('!')).map((s) => s.slice(1)),
  });
  const adv = split(etcd.advertisedSubnets);
  const listen = split(etcd.listenSubnets);
  return {
    advertiseValidSubnets: adv.valid,
    advertiseExcludeSubnets: adv.exclude,
    listenValidSubnets: listen.valid,
    listenExcludeSubnets: listen.exclude,
    image: etcd.image ?? '',
    extraArgs: { ...(etcd.extraArgs ?? {}) },
  };
}
