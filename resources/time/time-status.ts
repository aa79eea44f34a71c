// TimeStatuses.v1alpha1.talos.dev: whether the clock is in sync (`talosctl get timestatus`).
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';

/** upstream keeps time resources in the v1alpha1 namespace, which is named `runtime` */
export const TIME_NAMESPACE = 'runtime';
export const TIME_STATUS_ID = 'node';

/** TimeStatusSpec: epoch counts the times the clock jumped, so consumers can re-check certificates. */
export interface TimeStatusSpec {
  synced: boolean;
  epoch: number;
  syncDisabled: boolean;
}

export const TimeStatus = defineResource<TimeStatusSpec>({
  type: 'TimeStatuses.v1alpha1.talos.dev',
  defaultNamespace: TIME_NAMESPACE,
  printColumns: [{ name: 'Synced', jsonPath: '{.synced}' }],
  empty: () => ({ synced: false, epoch: 0, syncDisabled: false }),
  copy: (s) => ({ synced: s.synced, epoch: s.epoch, syncDisabled: s.syncDisabled }),
  equal: (a, b) => a.synced === b.synced && a.epoch === b.epoch && a.syncDisabled === b.syncDisabled,
  proto: {
    synced: { no: 1, kind: 'bool' },
    epoch: { no: 2, kind: 'int64' },
    syncDisabled: { no: 3, kind: 'bool' },
  },
  fromProto: (v) => ({
    synced: v.synced === true,
    epoch: Number(v.epoch ?? 0),
    syncDisabled: v.syncDisabled === true,
  }),
  toYAML: (s) => ({ synced: s.synced, epoch: s.epoch, syncDisabled: s.syncDisabled }),
  fromYAML: (v) => {
    const o = (v ?? {}) as Record<string, unknown>;
    return { synced: o.synced === true, epoch: Number(o.epoch ?? 0), syncDisabled: o.syncDisabled === true };
  },
});
export type TimeStatus = ResourceOf<typeof TimeStatus>;
