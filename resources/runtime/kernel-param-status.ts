// KernelParamStatuses.runtime.talos.dev: a kernel parameter as set (`talosctl get sysctls`): the value
// written, the kernel's own value before the first write (restored when no spec wants the key any more),
// and whether the kernel lacks the key.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { bool, obj, str } from '../network/yaml-read.js';
import { RUNTIME_NAMESPACE } from './machine-status.js';

export interface KernelParamStatusSpec {
  current: string;
  default: string;
  unsupported: boolean;
}

export const KernelParamStatus = defineResource<KernelParamStatusSpec>({
  type: 'KernelParamStatuses.runtime.talos.dev',
  defaultNamespace: RUNTIME_NAMESPACE,
  aliases: ['sysctls', 'kernelparameters', 'kernelparams'],
  printColumns: [
    { name: 'Current', jsonPath: '{.current}' },
    { name: 'Default', jsonPath: '{.default}' },
    { name: 'Unsupported', jsonPath: '{.unsupported}' },
  ],
  empty: () => ({ current: '', default: '', unsupported: false }),
  copy: (s) => ({ current: s.current, default: s.default, unsupported: s.unsupported }),
  equal: (a, b) => a.current === b.current && a.default === b.default && a.unsupported === b.unsupported,
  proto: {
    current: { no: 1, kind: 'string' },
    default: { no: 2, kind: 'string' },
    unsupported: { no: 3, kind: 'bool' },
  },
  fromProto: (v) => ({ current: str(v.current), default: str(v.default), unsupported: bool(v.unsupported) }),
  toYAML: (s) => ({ current: s.current, default: s.default, unsupported: s.unsupported }),
  fromYAML: (v) => {
    const o = obj(v);
    return { current: str(o.current), default: str(o.default), unsupported: bool(o.unsupported) };
  },
});
export type KernelParamStatus = ResourceOf<typeof KernelParamStatus>;
