// block.MountController: mounts the volumes subsystems ask for (VolumeMountRequest) once they are Ready,
// and publishes where each request's volume is mounted (VolumeMountStatus). Several requests of one
// volume share its mount; the mount is taken down once no request is left. A volume inside another one
// (a user volume under /var/mnt, on EPHEMERAL) is mounted only once its parent is, and taken down first.
import {
  FilesystemType,
  FilesystemTypes,
  VolumePhase,
  VolumeType,
} from '../../resources/block/volume-enums.js';
import {
  VolumeMountRequest,
  type VolumeMountRequestSpec,
} from '../../resources/block/volume-mount-request.js';
import { VolumeMountStatus } from '../../resources/block/volume-mount-status.js';
import { VolumeStatus, type VolumeStatusSpec } from '../../resources/block/volume-status.js';
import { type Controller, defineController, input, output } from '../../src/cosi/controller/index.js';
import { type GrowResult, growXfs } from '../../src/sys/block/mkfs/growfs.js';
import {
  ensureDirectory,
  mountVolume,
  unmountVolume,
  type VolumeMount,
} from '../../src/sys/block/volume-mount.js';

export const MOUNT_CONTROLLER = 'block.MountController';

/** Mounter is the mechanism: src/sys's by default, a recorder in pure tests. */
export interface Mounter {
  mount(v: VolumeMount): void;
  unmount(target: string): void;
  /** directory makes a directory volume's directory, with its mode and owner: nothing is mounted */
  directory(v: VolumeMount): void;
  /** grow fills the device with a filesystem just mounted read-write; undefined when it already does */
  grow(v: VolumeMount, signal: AbortSignal): Promise<GrowResult | undefined>;
}

const sysMounter: Mounter = {
  mount: (v) => void mountVolume(v),
  unmount: (t) => void unmountVolume(t),
  directory: (v) => ensureDirectory(v),
  // xfs is the only filesystem volumes are made with, and it grows only while mounted
  grow: async (v, signal) => (v.fstype === 'xfs' ? growXfs(v.source, v.target, { signal }) : undefined),
};

export interface MountControllerOptions {
  readonly mounter?: Mounter;
  /** where volumes without a target path (or asked for detached) are mounted: `<root>/<volume id>` */
  readonly detachedRoot?: string;
  /** put before every volume's target path (tests mount under a scratch directory); '' by default */
  readonly rootPrefix?: string;
  /** how soon a mount that failed is tried again without an input change (default 5 s) */
  readonly retryMs?: number;
}

/** MountPlan is one volume to mount, for the requests that want it. */
export interface MountPlan {
  readonly volumeID: string;
  /** the volume this one lives in: mounted before it, unmounted after it; '' for none */
  readonly parentID: string;
  /** a filesystem on a device, or a directory made in the parent volume */
  readonly kind: 'filesystem' | 'directory';
  readonly mount: VolumeMount;
  readonly requests: readonly { readonly id: string; readonly spec: VolumeMountRequestSpec }[];
}

/** parentOf is the volume a volume is mounted in: its own parent, else its mount's (as upstream reads them). */
export const parentOf = (st: VolumeStatusSpec): string => st.parentID || st.mountSpec.parentId;

/**
 * planMounts groups the requests by volume and keeps the volumes that are Ready: the target is the
 * volume's mount path (under `rootPrefix`, or the detached root), read-only only when every request asks
 * for read-only. A volume whose parent has no plan waits for it. Parents come before their children.
 */
export function planMounts(
  requests: readonly { readonly id: string; readonly spec: VolumeMountRequestSpec }[],
  statuses: ReadonlyMap<string, VolumeStatusSpec>,
  detachedRoot: string,
  rootPrefix = '',
): MountPlan[] {
  const byVolume = new Map<string, { id: string; spec: VolumeMountRequestSpec }[]>();
  for (const r of requests) byVolume.set(r.spec.volumeID, [...(byVolume.get(r.spec.volumeID) ?? []), r]);
  const plans = new Map<string, MountPlan>();
  for (const [volumeID, reqs] of [...byVolume].sort(([a], [b]) => a.localeCompare(b))) {
    const st = statuses.get(volumeID);
    if (!st || st.phase !== VolumePhase.Ready) continue;
    const kind = st.type === VolumeType.Directory ? 'directory' : 'filesystem';
    // a volume with no filesystem (raw, or one nothing was found on) has nothing to mount; a directory
    // has a place in its parent, or nothing to make
    if (kind === 'filesystem' && (!st.mountLocation || st.filesystem === FilesystemType.None)) continue;
    if (kind === 'directory' && !st.mountSpec.targetPath) continue;
    const detached =
      kind === 'filesystem' && (reqs.every((r) => r.spec.detached) || st.mountSpec.targetPath === '');
    plans.set(volumeID, {
      volumeID,
      parentID: parentOf(st),
      kind,
      requests: reqs,
      mount: {
        source: kind === 'directory' ? '' : st.mountLocation,
        target: detached ? `${detachedRoot}/${volumeID}` : `${rootPrefix}${st.mountSpec.targetPath}`,
        fstype: kind === 'directory' ? '' : FilesystemTypes.text(st.filesystem),
        readOnly: reqs.every((r) => r.spec.readOnly),
        ...(st.mountSpec.fileMode ? { mode: st.mountSpec.fileMode } : {}),
        uid: st.mountSpec.uid,
        gid: st.mountSpec.gid,
      },
    });
  }
  const depths = new Map([...plans.keys()].map((id) => [id, depthOf(id, (x) => plans.get(x)?.parentID)]));
  return [...plans.values()]
    .filter((p) => depths.get(p.volumeID) !== undefined)
    .sort((a, b) => (depths.get(a.volumeID) ?? 0) - (depths.get(b.volumeID) ?? 0));
}

/**
 * depthOf counts the parents above a volume (0 for none); undefined when a parent is missing from
 * `parentOf`'s answers or the chain loops, so the volume has nothing to be mounted in.
 */
export function depthOf(id: string, parent: (id: string) => string | undefined): number | undefined {
  const seen = new Set([id]);
  let depth = 0;
  for (let p = parent(id); p; p = parent(p), depth++) {
    if (seen.has(p) || parent(p) === undefined) return undefined;
    seen.add(p);
  }
  return depth;
}

/** Mounted is what the controller has mounted (or made) for a volume. */
interface Mounted {
  readonly target: string;
  readonly parentID: string;
  readonly kind: MountPlan['kind'];
}

/** unmountOrder puts the mounts to take down children first: deepest first, then by id. */
export function unmountOrder(
  leaving: readonly string[],
  parentOfMounted: (id: string) => string | undefined,
): string[] {
  const depth = (id: string) => depthOf(id, parentOfMounted) ?? 0;
  return [...leaving].sort((a, b) => depth(b) - depth(a) || a.localeCompare(b));
}

export function mountController(opts: MountControllerOptions = {}): Controller {
  const mounter = opts.mounter ?? sysMounter;
  const detachedRoot = opts.detachedRoot ?? '/run/keel/volumes';
  const rootPrefix = opts.rootPrefix ?? '';
  const retryMs = opts.retryMs ?? 5_000;
  return defineController({
    name: MOUNT_CONTROLLER,
    inputs: [input(VolumeMountRequest), input(VolumeStatus)],
    outputs: [output(VolumeMountStatus, 'exclusive')],
    async run(rt, { signal, logger }) {
      // what this controller mounted, by volume id, so it unmounts only its own mounts
      const mounted = new Map<string, Mounted>();
      const take = (volumeID: string, m: Mounted) => {
        if (m.kind === 'filesystem') mounter.unmount(m.target); // a directory stays where it was made
        mounted.delete(volumeID);
      };
      let timer: NodeJS.Timeout | undefined;
      signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
      for await (const _ of rt.events(signal)) {
        const requests = (await rt.list(VolumeMountRequest, { signal }))
          .filter((r) => r.metadata.phase === 'running')
          .map((r) => ({ id: r.metadata.id, spec: r.spec }));
        const statuses = new Map(
          (await rt.list(VolumeStatus, { signal })).map((r) => [r.metadata.id, r.spec] as const),
        );
        const plans = planMounts(requests, statuses, detachedRoot, rootPrefix);
        let failed = false;
        rt.startTrackingOutputs();
        for (const p of plans) {
          // the parent's mount failed in this pass (and is retried): the child waits for it
          if (p.parentID && !mounted.has(p.parentID)) continue;
          const was = mounted.get(p.volumeID);
          try {
            if (was && was.target !== p.mount.target) take(p.volumeID, was);
            if (p.kind === 'directory') mounter.directory(p.mount);
            else mounter.mount(p.mount);
            const fresh = was?.target !== p.mount.target;
            if (fresh)
              logger.info(p.kind === 'directory' ? 'volume directory made' : 'volume mounted', {
                volume: p.volumeID,
                target: p.mount.target,
                ...(p.mount.source ? { source: p.mount.source } : {}),
              });
            mounted.set(p.volumeID, { target: p.mount.target, parentID: p.parentID, kind: p.kind });
            // a partition grown to fill its disk (EPHEMERAL on a bigger disk) takes its filesystem along
            if (fresh && p.kind === 'filesystem' && !p.mount.readOnly)
              await mounter.grow(p.mount, signal).then(
                (g) => g && logger.info('volume grown', { volume: p.volumeID, from: g.from, to: g.to }),
                (e: unknown) => {
                  if (signal.aborted) throw e;
                  logger.error('volume not grown', { volume: p.volumeID, error: (e as Error).message });
                },
              );
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
        // volumes no request (or no Ready status, or no mounted parent) wants any more: children first
        const wanted = new Set(plans.filter((p) => mounted.has(p.volumeID)).map((p) => p.volumeID));
        const leaving = [...mounted.keys()].filter((id) => !wanted.has(id));
        for (const volumeID of unmountOrder(leaving, (id) => mounted.get(id)?.parentID)) {
          const m = mounted.get(volumeID) as Mounted;
          const child = [...mounted].find(([, c]) => c.parentID === volumeID);
          if (child) {
            // its child is still mounted (its unmount failed): unmounting the parent would fail too
            failed = true;
            logger.error('unmount waits for a child', { volume: volumeID, child: child[0] });
            continue;
          }
          try {
            take(volumeID, m);
            logger.info('volume unmounted', { volume: volumeID, target: m.target });
          } catch (e) {
            failed = true;
            logger.error('unmount failed', {
              volume: volumeID,
              target: m.target,
              error: (e as Error).message,
            });
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
