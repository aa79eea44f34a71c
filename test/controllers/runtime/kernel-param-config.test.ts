// runtime.KernelParamConfigController: the config's sysctls (SysctlConfig over machine.sysctls) and sysfs
// as KernelParamSpecs, gone once the config drops them.
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  configKernelParams,
  KERNEL_PARAM_CONFIG_CONTROLLER,
  KernelParamConfigController,
} from '../../../controllers/runtime/index.js';
import { KernelParamSpec } from '../../../resources/runtime/index.js';
import { decode } from '../../../src/config/index.js';
import {
  assertLength,
  assertNoResource,
  assertResource,
} from '../../../src/cosi/testing/assert-resources.js';
import { machineConfig, startRuntime } from '../network/env.js';

const config = (machine: string, more = '') =>
  decode(`version: v1alpha1\nmachine:\n  type: worker\n${machine}${more}`);

const SYSCTLS = '  sysctls:\n    vm.swappiness: "10"\n    net.ipv4.ip_forward: "0"\n';
const SYSFS = '  sysfs:\n    kernel.mm.transparent_hugepage.enabled: never\n';
const DOC = '---\napiVersion: v1alpha1\nkind: SysctlConfig\nparams:\n  vm.swappiness: "1"\n';

describe('configKernelParams', () => {
  it('prefixes sysctls and sysfs, the SysctlConfig document over machine.sysctls', () => {
    expect(Object.fromEntries(configKernelParams(config(SYSCTLS + SYSFS, DOC)))).toEqual({
      'proc.sys.vm.swappiness': '1',
      'proc.sys.net.ipv4.ip_forward': '0',
      'sys.kernel.mm.transparent_hugepage.enabled': 'never',
    });
    expect(configKernelParams(config(''))).toEqual(new Map());
  });
});

describe('runtime.KernelParamConfigController', () => {
  it("publishes the config's parameters and drops what it no longer sets", async () => {
    const env = startRuntime([KernelParamConfigController]);
    onTestFinished(env.stop);
    await env.state.create(machineConfig(config(SYSCTLS)));
    await assertResource(env.state, KernelParamSpec, 'proc.sys.vm.swappiness', (r) => {
      expect(r.metadata.owner).toBe(KERNEL_PARAM_CONFIG_CONTROLLER);
      expect(r.spec).toEqual({ value: '10', ignoreErrors: false });
    });
    await assertLength(env.state, KernelParamSpec, 2);
    const next = config('  sysctls:\n    vm.swappiness: "5"\n');
    await env.state.modify(machineConfig(next), (r) => {
      r.spec = next;
    });
    await assertNoResource(env.state, KernelParamSpec, 'proc.sys.net.ipv4.ip_forward');
    await assertResource(env.state, KernelParamSpec, 'proc.sys.vm.swappiness', (r) =>
      expect(r.spec.value).toBe('5'),
    );
  });
});
