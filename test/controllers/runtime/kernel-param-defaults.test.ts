// runtime.KernelParamDefaultsController: upstream's defaults as KernelParamDefaultSpecs, IPv6's only where
// the kernel has IPv6 (probed under a stand-in /proc/sys).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  KERNEL_PARAM_DEFAULTS_CONTROLLER,
  kernelParamDefaultsController,
} from '../../../controllers/runtime/index.js';
import { kernelParamDefaults } from '../../../controllers/runtime/kernel-param-defaults-list.js';
import { KernelParamDefaultSpec } from '../../../resources/runtime/index.js';
import { assertLength, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { scratchDir } from '../../sys/child.js';
import { startRuntime } from '../network/env.js';

/** roots: a stand-in /proc/sys, with IPv6's probe key when asked */
function roots(ipv6: boolean) {
  const dir = scratchDir('keel-kparam-defaults-');
  const procSys = join(dir, 'proc/sys');
  mkdirSync(join(procSys, 'net/ipv6/conf/default'), { recursive: true });
  if (ipv6) writeFileSync(join(procSys, 'net/ipv6/conf/default/accept_ra'), '1\n');
  return { procSys, sys: join(dir, 'sys') };
}

describe('kernelParamDefaults', () => {
  it("holds what the kubelet's protectKernelDefaults checks, and IPv6's only with IPv6", () => {
    const v4 = new Map(kernelParamDefaults(false));
    expect(v4.get('vm.overcommit_memory')).toBe('1');
    expect(v4.get('kernel.panic')).toBe('10');
    expect(v4.get('net.ipv4.ip_forward')).toBe('1');
    expect(v4.get('net.ipv4.ip_local_reserved_ports')).toBe('50000,50001');
    expect(v4.has('net.ipv6.conf.default.forwarding')).toBe(false);
    const v6 = new Map(kernelParamDefaults(true));
    expect(v6.get('net.ipv6.conf.default.forwarding')).toBe('1');
    expect(v6.get('net.ipv6.conf.default.accept_ra')).toBe('2');
    expect(v6.size).toBe(v4.size + 2);
  });
});

describe('runtime.KernelParamDefaultsController', () => {
  it('publishes each default as proc.sys.<key>', async () => {
    const env = startRuntime([kernelParamDefaultsController(roots(true))]);
    onTestFinished(env.stop);
    await assertLength(env.state, KernelParamDefaultSpec, kernelParamDefaults(true).length);
    await assertResource(env.state, KernelParamDefaultSpec, 'proc.sys.vm.overcommit_memory', (r) => {
      expect(r.metadata.owner).toBe(KERNEL_PARAM_DEFAULTS_CONTROLLER);
      expect(r.spec).toEqual({ value: '1', ignoreErrors: false });
    });
    await assertResource(env.state, KernelParamDefaultSpec, 'proc.sys.net.ipv6.conf.default.accept_ra', (r) =>
      expect(r.spec.value).toBe('2'),
    );
  });

  it('leaves IPv6 out where the kernel lacks it', async () => {
    const env = startRuntime([kernelParamDefaultsController(roots(false))]);
    onTestFinished(env.stop);
    await assertLength(env.state, KernelParamDefaultSpec, kernelParamDefaults(false).length);
  });
});
