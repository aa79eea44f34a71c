// runtime.KernelParamSpecController against a stand-in /proc/sys (real files under a temporary directory):
// the config's value over the default's, the kernel's own value back once no spec wants a key, and keys
// the kernel lacks.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  KERNEL_PARAM_SPEC_CONTROLLER,
  kernelParamSpecController,
  paramsInOrder,
  staleKeys,
} from '../../../controllers/runtime/index.js';
import {
  KernelParamDefaultSpec,
  KernelParamSpec,
  KernelParamStatus,
} from '../../../resources/runtime/index.js';
import { isNotFound } from '../../../src/cosi/state/errors.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { kernelParamPath } from '../../../src/sys/kernel-param.js';
import { scratchDir } from '../../sys/child.js';
import { startRuntime } from '../network/env.js';

/** a stand-in /proc/sys and /sys holding these keys, each with the kernel's value `0` */
function kernel(keys: readonly string[]) {
  const dir = scratchDir('keel-kparam-spec-');
  const roots = { procSys: join(dir, 'proc/sys'), sys: join(dir, 'sys') };
  const add = (key: string, value = '0\n') => {
    mkdirSync(dirname(kernelParamPath(key, roots)), { recursive: true });
    writeFileSync(kernelParamPath(key, roots), value);
  };
  for (const k of keys) add(k);
  return { roots, add, read: (key: string) => readFileSync(kernelParamPath(key, roots), 'utf8') };
}

const spec = (id: string, value: string, ignoreErrors = false) =>
  KernelParamSpec.new('runtime', id, { value, ignoreErrors });
const byDefault = (id: string, value: string) =>
  KernelParamDefaultSpec.new('runtime', id, { value, ignoreErrors: false });
const res = (id: string, value: string) => ({ metadata: { id }, spec: { value, ignoreErrors: false } });

const FORWARD = 'proc.sys.net.ipv4.ip_forward';
const PANIC = 'proc.sys.kernel.panic';
const SWAPPINESS = 'proc.sys.vm.swappiness';
const BRIDGE = 'proc.sys.net.bridge.bridge-nf-call-iptables';

describe('paramsInOrder and staleKeys', () => {
  it("lists the config's specs first, so that they win", () => {
    const order = paramsInOrder([res(FORWARD, '0')], [res(FORWARD, '1'), res(PANIC, '10')]);
    expect(order.map((p) => [p.layer, p.id, p.spec.value])).toEqual([
      ['config', FORWARD, '0'],
      ['default', FORWARD, '1'],
      ['default', PANIC, '10'],
    ]);
  });

  it('gives back the keys written before that this pass did not set', () => {
    expect(staleKeys([FORWARD, PANIC, SWAPPINESS], new Set([PANIC]))).toEqual([FORWARD, SWAPPINESS]);
  });
});

describe('runtime.KernelParamSpecController', () => {
  it("sets the config's value over the default's and restores the kernel's once a spec goes", async () => {
    const k = kernel([FORWARD, PANIC, SWAPPINESS]);
    const env = startRuntime([kernelParamSpecController({ roots: k.roots })]);
    onTestFinished(env.stop);
    await env.state.create(byDefault(FORWARD, '1'));
    await env.state.create(byDefault(PANIC, '10'));
    await env.state.create(spec(FORWARD, '2'));
    await env.state.create(spec(SWAPPINESS, '60'));

    await assertResource(env.state, KernelParamStatus, FORWARD, (r) => {
      expect(r.metadata.owner).toBe(KERNEL_PARAM_SPEC_CONTROLLER);
      expect(r.spec).toEqual({ current: '2', default: '0', unsupported: false });
    });
    await assertResource(env.state, KernelParamStatus, PANIC, (r) => expect(r.spec.current).toBe('10'));
    await assertResource(env.state, KernelParamStatus, SWAPPINESS, (r) => expect(r.spec.current).toBe('60'));
    expect([k.read(FORWARD), k.read(PANIC), k.read(SWAPPINESS)]).toEqual(['2', '10', '60']);

    // the config drops both: the default takes over forwarding, swappiness gets the kernel's value back
    await env.state.destroy(KernelParamSpec.pointer(FORWARD));
    await env.state.destroy(KernelParamSpec.pointer(SWAPPINESS));
    await assertResource(env.state, KernelParamStatus, FORWARD, (r) =>
      expect(r.spec).toEqual({ current: '1', default: '0', unsupported: false }),
    );
    await assertNoResource(env.state, KernelParamStatus, SWAPPINESS);
    expect([k.read(FORWARD), k.read(SWAPPINESS)]).toEqual(['1', '0\n']);
  });

  it('reports a key the kernel lacks as unsupported when its spec ignores errors', async () => {
    const k = kernel([PANIC]);
    const env = startRuntime([kernelParamSpecController({ roots: k.roots })]);
    onTestFinished(env.stop);
    await env.state.create(spec(BRIDGE, '1', true));
    await env.state.create(byDefault(PANIC, '10'));
    await assertResource(env.state, KernelParamStatus, BRIDGE, (r) =>
      expect(r.spec).toEqual({ current: '', default: '', unsupported: true }),
    );
    await assertResource(env.state, KernelParamStatus, PANIC, (r) => expect(r.spec.current).toBe('10'));
  });

  it('sets the others when a key is missing, and retries it until the kernel has it', async () => {
    const k = kernel([PANIC]);
    const env = startRuntime([kernelParamSpecController({ roots: k.roots })]);
    onTestFinished(env.stop);
    await env.state.create(byDefault(BRIDGE, '1'));
    await env.state.create(byDefault(PANIC, '10'));
    await assertResource(env.state, KernelParamStatus, PANIC, (r) => expect(r.spec.current).toBe('10'));
    await expect(env.state.get(KernelParamStatus.pointer(BRIDGE))).rejects.toSatisfy(isNotFound);
    // the bridge's keys appear (br_netfilter loaded): the next retry sets it
    k.add(BRIDGE);
    await assertResource(env.state, KernelParamStatus, BRIDGE, (r) =>
      expect(r.spec).toEqual({ current: '1', default: '0', unsupported: false }),
    );
    expect(k.read(BRIDGE)).toBe('1');
  });
});
