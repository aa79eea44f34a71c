// EtcFileStatuses.files.talos.dev: which EtcFileSpec version is written to disk.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { FILES_NAMESPACE } from './namespace.js';

/** EtcFileStatusSpec: the version of the spec whose contents the file now has. */
export interface EtcFileStatusSpec {
  specVersion: string;
}

export const EtcFileStatus = defineResource<EtcFileStatusSpec>({
  type: 'EtcFileStatuses.files.talos.dev',
  defaultNamespace: FILES_NAMESPACE,
  empty: () => ({ specVersion: '' }),
  copy: (s) => ({ specVersion: s.specVersion }),
  equal: (a, b) => a.specVersion === b.specVersion,
  proto: { specVersion: { no: 1, kind: 'string' } },
  fromProto: (v) => ({ specVersion: String(v.specVersion ?? '') }),
  toYAML: (s) => ({ specVersion: s.specVersion }),
  fromYAML: (v) => ({ specVersion: String((v as Record<string, unknown> | null)?.specVersion ?? '') }),
});
export type EtcFileStatus = ResourceOf<typeof EtcFileStatus>;
