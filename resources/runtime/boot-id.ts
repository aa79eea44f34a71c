// BootIDs.runtime.talos.dev: the kernel's boot id (/proc/sys/kernel/random/boot_id), new on every boot.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { RUNTIME_NAMESPACE } from './machine-status.js';

export const BOOT_ID_ID = 'boot-id';

/** BootIDSpec holds the boot id as the kernel prints it. */
export interface BootIDSpec {
  bootID: string;
}

export const BootID = defineResource<BootIDSpec>({
  type: 'BootIDs.runtime.talos.dev',
  defaultNamespace: RUNTIME_NAMESPACE,
  printColumns: [{ name: 'Boot ID', jsonPath: '{.bootID}' }],
  empty: () => ({ bootID: '' }),
  copy: (s) => ({ bootID: s.bootID }),
  equal: (a, b) => a.bootID === b.bootID,
  proto: { bootID: { no: 1, kind: 'string' } },
  fromProto: (v) => ({ bootID: String(v.bootID ?? '') }),
});
export type BootID = ResourceOf<typeof BootID>;
