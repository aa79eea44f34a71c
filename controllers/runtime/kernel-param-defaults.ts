// runtime.KernelParamDefaultsController: a KernelParamDefaultSpec per default kernel parameter, id
// `proc.sys.<key>`. Only a node runs it: a container node keeps its host's kernel as it is.
import { KernelParamDefaultSpec } from '../../resources/runtime/index.js';
import { defineController, output } from '../../src/cosi/controller/index.js';
import {
  hasKernelParam,
  KERNEL_PARAM_ROOTS,
  type KernelParamRoots,
  SYSCTL_PREFIX,
} from '../../src/sys/kernel-param.js';
import { IPV6_PROBE, kernelParamDefaults } from './kernel-param-defaults-list.js';

export const KERNEL_PARAM_DEFAULTS_CONTROLLER = 'runtime.KernelParamDefaultsController';

/** kernelParamDefaultsController: `roots` is where the IPv6 probe looks (tests: a stand-in /proc/sys). */
export function kernelParamDefaultsController(roots: KernelParamRoots = KERNEL_PARAM_ROOTS) {
  return defineController({
    name: KERNEL_PARAM_DEFAULTS_CONTROLLER,
    outputs: [output(KernelParamDefaultSpec, 'shared')],
    async run(rt, { signal }) {
      // no inputs: the one wake-up at start is the only one
      for await (const _ of rt.events(signal)) {
        for (const [key, value] of kernelParamDefaults(hasKernelParam(IPV6_PROBE, roots)))
          await rt.modify(
            KernelParamDefaultSpec,
            `${SYSCTL_PREFIX}.${key}`,
            (s) => {
              s.value = value;
            },
            { signal },
          );
        rt.resetBackoff();
      }
    },
  });
}
