// MetaLoads.runtime.talos.dev: present once the META partition's tags have been read into MetaKeys.
// (Upstream's type string is "MetaLoads", not "MetaLoadeds".)
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { RUNTIME_NAMESPACE } from './machine-status.js';

export const META_LOADED_ID = 'meta-loaded';

/** MetaLoadedSpec: `done` is always true while the resource exists. */
export interface MetaLoadedSpec {
  done: boolean;
}

export const MetaLoaded = defineResource<MetaLoadedSpec>({
  type: 'MetaLoads.runtime.talos.dev',
  defaultNamespace: RUNTIME_NAMESPACE,
  printColumns: [{ name: 'Done', jsonPath: '{.done}' }],
  empty: () => ({ done: false }),
  copy: (s) => ({ done: s.done }),
  equal: (a, b) => a.done === b.done,
  proto: { done: { no: 1, kind: 'bool' } },
  fromProto: (v) => ({ done: v.done === true }),
});
export type MetaLoaded = ResourceOf<typeof MetaLoaded>;
