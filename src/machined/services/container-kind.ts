// The `container` kind of ServiceSpec: the service as a container of the node's containerd, from an image
// already in its namespace (spec.image) or a rootfs directory. Files, health and dependencies work as for
// a process; the kind's options say which ctr and containerd to use and what the container may see.
import type { ServiceSpecSpec } from '../../../resources/v1alpha1/index.js';
import { containerdRunner } from './containerd-runner.js';
import type { CtrMount } from './ctr-args.js';
import { ServiceError } from './errors.js';
import { processKind, type ServiceKind } from './spec-definition.js';

/**
 * The options a `container` spec carries: `ctr` (the layer's ctr) and `address` (containerd's socket)
 * always; `namespace` (default `system`), `rootfs` (instead of an image), `hostNetwork` (`true`),
 * `mounts` (`src:dst[:ro]`, comma-separated), `dropCapabilities` (comma-separated).
 */
export const CONTAINER_OPTIONS = [
  'ctr',
  'address',
  'namespace',
  'rootfs',
  'hostNetwork',
  'mounts',
  'dropCapabilities',
] as const;

/** containerKind: processKind's files, health and dependencies, with a containerd runner. */
export const containerKind: ServiceKind = (id, spec, env) => {
  const o = spec.options;
  const missing = ['ctr', 'address'].filter((k) => !o[k]);
  if (missing.length > 0)
    throw new ServiceError(
      'unsupported',
      `service ${JSON.stringify(id)}: a container needs options ${missing.join(', ')}`,
    );
  if (!spec.image === !o.rootfs)
    throw new ServiceError(
      'unsupported',
      `service ${JSON.stringify(id)}: a container needs an image or options.rootfs, not both`,
    );
  const list = (v: string | undefined) =>
    v
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [];
  return {
    ...processKind(id, spec, env),
    runner: () =>
      containerdRunner({
        id,
        ctr: o.ctr!,
        address: o.address!,
        namespace: o.namespace || 'system',
        source: spec.image ? { type: 'image', ref: spec.image } : { type: 'rootfs', path: o.rootfs! },
        args: spec.args,
        env: spec.env,
        ...ids(spec),
        dropCapabilities: list(o.dropCapabilities),
        // as a process's: its own cgroup under machined's system tree, where machined places services
        ...(env.cgroups ? { cgroupPath: `/${spec.cgroup || `system/${id}`}` } : {}),
        hostNetwork: o.hostNetwork === 'true',
        mounts: list(o.mounts).map(parseMount),
        ...(env.spawn ? { spawn: env.spawn } : {}),
      }),
  };
};

const ids = (spec: ServiceSpecSpec) => ({
  ...(spec.uid !== 0 ? { uid: spec.uid } : {}),
  ...(spec.gid !== 0 ? { gid: spec.gid } : {}),
});

/** parseMount reads `src:dst[:ro]` (read-write without the suffix). */
export function parseMount(s: string): CtrMount {
  const [source = '', destination = '', mode = 'rw'] = s.split(':');
  if (!source.startsWith('/') || !destination.startsWith('/') || !['ro', 'rw'].includes(mode))
    throw new ServiceError('unsupported', `mount ${JSON.stringify(s)}: want /source:/destination[:ro]`);
  return { source, destination, readOnly: mode === 'ro' };
}
