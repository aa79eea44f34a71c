// block.MountController: mounts the volumes subsystems ask for (VolumeMountRequest) once they are Ready,
// and publishes where each request's volume is mounted (VolumeMountStatus). Several requests of one
// volume share its mount; the mount is taken down once no request is left.
import { FilesystemTypes, VolumePhase } from '../../resources/block/volume-enums.js';
import {
  VolumeMountRequest,
  type VolumeMountRequestSpec,
} from '../../resources/block/volume-mount-request.js';
import { VolumeMountStatus } from '../../resources/block/volume-mount-status.js';
import { VolumeStatus, type VolumeStatusSpec } from '../../resources/block/volume-status.js';
import { type Controller, defineController, input, output } from '../../src/cosi/controller/index.js';
import { mountVolume, unmountVolume, type VolumeMount } from '../../src/sys/block/volume-mount.js';

export const MOUNT_CONTROLLER = 'block.MountController';

/** Mounter is the mechanism: src/sys's by default, a recorder in pure tests. */
export interface Mounter {
  mount(v: VolumeMount): void;
  unmount(target: string): void;
}

const sysMounter: Mounter = {
  mount: (v) => void mountVolume(v),
  unmount: (t) => void unmountVolume(t),
};

export interface MountControllerOptions {
  readonly mounter?: Mounter;
  /** where volumes without a target path (or asked for detached) are mounted: `<root>/<volume id>` */
  readonly detachedRoot?: string;
  /** how soon a mount that failed is tried again without an input change (default 5 s) */
  readonly retryMs?: number;
}

/** MountPlan is one volume to mount, for the requests that want it. */
export interface MountPlan {
  readonly volumeID: string;
  readonly mount: VolumeMount;
  readonly requests: readonly { readonly id: string; readonly spec: VolumeMountRequestSpec }[];
}

/**
 * planMounts groups the requests by volume and keeps the volumes that are Ready: the target is the
 * volume's mount path (or the detached root), read-only only when every request asks for read-only.
 */
export function planMounts(
  requests: readonly { readonly id: string; readonly spec: VolumeMountRequestSpec }[],
  statuses: ReadonlyMap<string, VolumeStatusSpec>,
  detachedRoot: string,
): MountPlan[] {
  const byVolume = new Map<string, { id: string; spec: VolumeMountRequestSpec }[]>();
  for (const r of requests) byVolume.set(r.spec.volumeID, [...(byVolume.get(r.spec.volumeID) ?? []), r]);
  const plans: MountPlan[] = [];
  for (const [volumeID, reqs] of [...byVolume].sort(([a], [b]) => a.localeCompare(b))) {
    const st = statuses.get(volumeID);
    if (!st || st.phase !== VolumePhase.Ready || !st.mountLocation) continue;
    const detached = reqs.every((r) => r.spec.detached) || st.mountSpec.targetPath === '';
    plans.push({
      volumeID,
      requests: reqs,
      mount: {
        source: st.mountLocation,
        target: detached ? `${detachedRoot}/${volumeID}` : st.mountSpec.targetPath,
        fstype: FilesystemTypes.text(st.filesystem),
        readOnly: reqs.every((r) => r.spec.readOnly),
        ...(st.mountSpec.fileMode ? { mode: st.mountSpec.fileMode } : {}),
        uid: st.mountSpec.uid,
        gid: st.mountSpec.gid,
      },
    });
  }
  return plans;
}

export function mountController(opts: MountControllerOptions = {}): Controller {
  const mounter = opts.mounter ?? sysMounter;
  const detachedRoot = opts.detachedRoot ?? '/run/keel/volumes';
  const retryMs = opts.retryMs ?? 5_000;
  return defineController({
    name: MOUNT_CONTROLLER,
    inputs: [input(VolumeMountRequest), input(VolumeStatus)],
    outputs: [output(VolumeMountStatus, 'exclusive')],
    async run(rt, { signal, logger }) {
      // what this controller mounted: volume id → target, so it unmounts only its own mounts
      const mounted = new Map<string, string>();
      let timer: NodeJS.Timeout | undefined;
      signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
      for await (const _ of rt.events(signal)) {
        const requests = (await rt.list(VolumeMountRequest, { signal }))
          .filter((r) => r.metadata.phase === 'running')
          .map((r) => ({ id: r.metadata.id, spec: r.spec }));
        const statuses = new Map(
          (await rt.list(VolumeStatus, { signal })).map((r) => [r.metadata.id, r.spec] as const),
        );
        const plans = planMounts(requests, statuses, detachedRoot);
        let failed = false;
        rt.startTrackingOutputs();
        for (const p of plans) {
          const was = mounted.get(p.volumeID);
          try {
            if (was !== undefined && was !== p.mount.target) {
              mounter.unmount(was);
              mounted.delete(p.volumeID);
            }
            mounter.mount(p.mount);
            if (was !== p.mount.target)
              logger.info('volume mounted', {
                volume: p.volumeID,
                target: p.mount.target,
                source: p.mount.source,
              });
            mounted.set(p.volumeID, p.mount.target);
          } catch (e) {
            failed = true;
            logger.error('mount failed', {
              volume: p.volumeID,
              target: p.mount.target,
              error: (e as Error).message,
            });
            continue;
          }
          for (const r of p.requests) {
            await rt.modify(
              VolumeMountStatus,
              r.id,
              (s) => {
                s.volumeID = p.volumeID;
                s.requester = r.spec.requester;
                s.target = p.mount.target;
                s.readOnly = p.mount.readOnly;
                s.detached = r.spec.detached;
              },
              { signal },
            );
          }
        }
        // volumes no request (or no Ready status) wants any more
        const wanted = new Set(plans.map((p) => p.volumeID));
        for (const [volumeID, target] of mounted) {
          if (wanted.has(volumeID)) continue;
          try {
            mounter.unmount(target);
            mounted.delete(volumeID);
            logger.info('volume unmounted', { volume: volumeID, target });
          } catch (e) {
            failed = true;
            logger.error('unmount failed', { volume: volumeID, target, error: (e as Error).message });
          }
        }
        await rt.cleanupOutputs(VolumeMountStatus);
        clearTimeout(timer);
        if (failed) timer = setTimeout(() => rt.queueReconcile(), retryMs);
        rt.resetBackoff();
      }
    },
  });
}
