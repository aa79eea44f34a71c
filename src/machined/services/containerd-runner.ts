// The containerd runner contract. Only the interface exists: containerd comes with a later issue.
import type { Runner } from './runner.js';

/**
 * ContainerdRunnerOptions describe a service run as a container, the way upstream runs apid, trustd,
 * etcd and kubelet: from a rootfs path or an image, on a given containerd socket and namespace.
 */
export interface ContainerdRunnerOptions {
  /** containerd's socket, e.g. /system/run/containerd/containerd.sock (system) or the CRI one */
  readonly address: string;
  /** containerd namespace, e.g. `system` */
  readonly namespace: string;
  /** exactly one of a read-only rootfs directory or an image reference */
  readonly source:
    | { readonly type: 'rootfs'; readonly path: string }
    | { readonly type: 'image'; readonly ref: string };
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly uid?: number;
  readonly gid?: number;
  /** capability names to drop (apid drops all) */
  readonly dropCapabilities?: readonly string[];
  readonly cgroupPath?: string;
  readonly oomScoreAdj?: number;
  readonly hostNetwork?: boolean;
  readonly mounts?: readonly {
    readonly source: string;
    readonly destination: string;
    readonly readOnly: boolean;
  }[];
  readonly gracefulShutdownTimeoutMs?: number;
}

/**
 * ContainerdRunnerFactory makes a Runner for a container. No implementation exists yet; the
 * supervisor only needs the Runner it returns, so one plugs in without touching the supervisor.
 */
export type ContainerdRunnerFactory = (opts: ContainerdRunnerOptions) => Runner;
