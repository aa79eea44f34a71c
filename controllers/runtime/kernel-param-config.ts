// runtime.KernelParamConfigController: a KernelParamSpec per kernel parameter the machine config sets —
// machine.sysctls with the SysctlConfig documents over them (`proc.sys.<key>`), and machine.sysfs
// (`sys.<path>`) — and none once the config drops it.
import { MACHINE_CONFIG_ID, MachineConfig } from '../../resources/config/machine-config.js';
import { KernelParamSpec } from '../../resources/runtime/index.js';
import { accessors, type Config, v1alpha1Of } from '../../src/config/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { SYSCTL_PREFIX, SYSFS_PREFIX } from '../../src/sys/kernel-param.js';
import { configOf } from '../config/config-of.js';

export const KERNEL_PARAM_CONFIG_CONTROLLER = 'runtime.KernelParamConfigController';

/** configKernelParams maps each prefixed id the config sets to its value. */
export function configKernelParams(cfg: Config): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(accessors(cfg).sysctls())) out.set(`${SYSCTL_PREFIX}.${k}`, v);
  for (const [k, v] of Object.entries(v1alpha1Of(cfg)?.machine?.sysfs ?? {}))
    out.set(`${SYSFS_PREFIX}.${k}`, v);
  return out;
}

export const KernelParamConfigController = defineController({
  name: KERNEL_PARAM_CONFIG_CONTROLLER,
  inputs: [input(MachineConfig, { id: MACHINE_CONFIG_ID })],
  outputs: [output(KernelParamSpec, 'shared')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      // no config yet: nothing set, and what an earlier config set goes away
      const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
      const params = cfg ? configKernelParams(configOf(cfg.spec)) : new Map<string, string>();
      rt.startTrackingOutputs();
      for (const [id, value] of params)
        await rt.modify(
          KernelParamSpec,
          id,
          (s) => {
            s.value = value;
          },
          { signal },
        );
      await rt.cleanupOutputs(KernelParamSpec);
      rt.resetBackoff();
    }
  },
});
