// What the debug and image handlers need of the node: its containerd's images, and a debug container that
// runs attached to the call. The node wires them (src/machined/node/run-node.ts); src/api runs nothing itself.

/** LocalImage: one image record of a containerd namespace. */
export interface LocalImage {
  readonly name: string;
  /** its target's digest, `sha256:…` */
  readonly digest: string;
}

/** DebugRun: what to run; the profile is always upstream's privileged one. */
export interface DebugRun {
  /** containerd namespace: `system` or `k8s.io` */
  readonly namespace: string;
  /** the image record's name, as `images` listed it */
  readonly image: string;
  /** empty: the image's command */
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** DebugContainer: a started debug container, its stdin, merged stdout and stderr, and its end. */
export interface DebugContainer {
  /** stdout and stderr, interleaved as written; ends once the container has ended */
  readonly output: AsyncIterable<Buffer>;
  write(data: Buffer): Promise<void>;
  closeStdin(): void;
  /** sends a signal to the container's process */
  signal(signo: number): Promise<void>;
  /** the exit code (128 + n for a signal), once the container has ended and is removed */
  readonly exited: Promise<number>;
}

export interface DebugDeps {
  images(namespace: string, opts: { signal: AbortSignal }): Promise<readonly LocalImage[]>;
  /** starts a container; an abort of `signal` kills and removes it */
  run(req: DebugRun, opts: { signal: AbortSignal }): Promise<DebugContainer>;
}
