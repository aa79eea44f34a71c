// The command lines of containerd's own client, ctr, from the components layer: what to run a container
// with, and how to read its image list. Pure: the runner and the debug containers execute them.
import { ServiceError } from './errors.js';

/** CtrTarget: which ctr, which containerd and which of its namespaces. */
export interface CtrTarget {
  /** the layer's ctr binary */
  readonly ctr: string;
  /** containerd's socket */
  readonly address: string;
  readonly namespace: string;
}

/** the label tying a container to the service (or debug session) that made it, for the stale sweep */
export const OWNER_LABEL = 'keel.dev/owner';

export interface CtrMount {
  readonly source: string;
  readonly destination: string;
  readonly readOnly: boolean;
}

/** CtrRunSpec is one container as `ctr run` makes it. */
export interface CtrRunSpec {
  /** the container id, also its snapshot's key */
  readonly id: string;
  readonly owner: string;
  readonly source:
    | { readonly type: 'rootfs'; readonly path: string }
    | { readonly type: 'image'; readonly ref: string };
  /** the process; empty: the image's own command */
  readonly args: readonly string[];
  /** added to the image's environment */
  readonly env?: Readonly<Record<string, string>>;
  readonly uid?: number;
  readonly gid?: number;
  readonly dropCapabilities?: readonly string[];
  /** the container's cgroup; absent: containerd's default (`/<namespace>/<id>`) */
  readonly cgroupPath?: string;
  readonly hostNetwork?: boolean;
  readonly mounts?: readonly CtrMount[];
  /** every capability and device, no seccomp, and these host namespaces joined by path */
  readonly privileged?: { readonly joinNamespaces: Readonly<Partial<Record<'pid' | 'ipc', string>>> };
}

/** ctrGlobal: the flags every ctr call starts with. */
export const ctrGlobal = (t: CtrTarget): string[] => ['--address', t.address, '--namespace', t.namespace];

/**
 * ctrRunArgs is `ctr run --rm …` for the spec: attached (ctr forwards the signals it gets to the task and
 * exits with the task's code), removed with its snapshot once it ends.
 */
export function ctrRunArgs(t: CtrTarget, s: CtrRunSpec): string[] {
  const flags = ['run', '--rm', '--label', `${OWNER_LABEL}=${s.owner}`];
  for (const [k, v] of Object.entries(s.env ?? {})) flags.push('--env', `${k}=${v}`);
  if (s.uid !== undefined || s.gid !== undefined) flags.push('--user', `${s.uid ?? 0}:${s.gid ?? 0}`);
  for (const c of s.dropCapabilities ?? []) flags.push('--cap-drop', capName(c));
  if (s.cgroupPath !== undefined) flags.push('--cgroup', s.cgroupPath);
  if (s.hostNetwork) flags.push('--net-host');
  for (const m of s.mounts ?? []) flags.push('--mount', mountArg(m));
  if (s.privileged) {
    flags.push('--privileged');
    for (const [ns, path] of Object.entries(s.privileged.joinNamespaces))
      flags.push('--with-ns', `${ns}:${path}`);
  }
  const what =
    s.source.type === 'rootfs' ? ['--rootfs', '--read-only', s.source.path, s.id] : [s.source.ref, s.id];
  return [...ctrGlobal(t), ...flags, ...what, ...s.args];
}

/** capName: ctr wants the CAP_ prefix; specs may leave it out. */
const capName = (c: string): string =>
  c.toUpperCase().startsWith('CAP_') ? c.toUpperCase() : `CAP_${c.toUpperCase()}`;

/** mountArg: ctr's `type=bind,src=…,dst=…,options=rbind:ro`; its fields are comma-separated. */
function mountArg(m: CtrMount): string {
  for (const p of [m.source, m.destination])
    if (/[,=]/.test(p))
      throw new ServiceError(
        'unsupported',
        `mount path ${JSON.stringify(p)}: ',' and '=' cannot be passed to ctr`,
      );
  return `type=bind,src=${m.source},dst=${m.destination},options=rbind:${m.readOnly ? 'ro' : 'rw'}`;
}

/** CtrImage: one image of a namespace, by name, with its target's digest. */
export interface CtrImage {
  readonly name: string;
  readonly digest: string;
}

/** parseImageList reads `ctr images ls`: REF TYPE DIGEST SIZE PLATFORMS LABELS, header first. */
export function parseImageList(out: string): CtrImage[] {
  return out
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((cols) => cols.length >= 3 && cols[2]!.includes(':'))
    .map((cols) => ({ name: cols[0]!, digest: cols[2]! }));
}
