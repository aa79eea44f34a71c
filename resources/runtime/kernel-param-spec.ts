// KernelParamSpecs.runtime.talos.dev and KernelParamDefaultSpecs.runtime.talos.dev: a kernel parameter to
// set, from the machine config and from the defaults. The id is the key with its prefix, as upstream's
// (`proc.sys.vm.overcommit_memory`, `sys.kernel.mm.transparent_hugepage.enabled`).
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { bool, obj, str } from '../network/yaml-read.js';
import { RUNTIME_NAMESPACE } from './machine-status.js';

/** KernelParamSpecSpec: the value to write, and whether a key the kernel lacks is only reported. */
export interface KernelParamSpecSpec {
  value: string;
  ignoreErrors: boolean;
}

/** KernelParamDefaultSpecSpec is the same spec, as upstream aliases it. */
export type KernelParamDefaultSpecSpec = KernelParamSpecSpec;

const codec = {
  empty: (): KernelParamSpecSpec => ({ value: '', ignoreErrors: false }),
  copy: (s: KernelParamSpecSpec): KernelParamSpecSpec => ({ value: s.value, ignoreErrors: s.ignoreErrors }),
  equal: (a: KernelParamSpecSpec, b: KernelParamSpecSpec) =>
    a.value === b.value && a.ignoreErrors === b.ignoreErrors,
  proto: { value: { no: 1, kind: 'string' }, ignoreErrors: { no: 2, kind: 'bool' } } as const,
  fromProto: (v: Record<string, unknown>): KernelParamSpecSpec => ({
    value: str(v.value),
    ignoreErrors: bool(v.ignoreErrors),
  }),
  // upstream's YAML keys, both always written
  toYAML: (s: KernelParamSpecSpec) => ({ value: s.value, ignoreErrors: s.ignoreErrors }),
  fromYAML: (v: unknown): KernelParamSpecSpec => {
    const o = obj(v);
    return { value: str(o.value), ignoreErrors: bool(o.ignoreErrors) };
  },
};

export const KernelParamSpec = defineResource<KernelParamSpecSpec>({
  type: 'KernelParamSpecs.runtime.talos.dev',
  defaultNamespace: RUNTIME_NAMESPACE,
  ...codec,
});
export type KernelParamSpec = ResourceOf<typeof KernelParamSpec>;

export const KernelParamDefaultSpec = defineResource<KernelParamDefaultSpecSpec>({
  type: 'KernelParamDefaultSpecs.runtime.talos.dev',
  defaultNamespace: RUNTIME_NAMESPACE,
  ...codec,
});
export type KernelParamDefaultSpec = ResourceOf<typeof KernelParamDefaultSpec>;
