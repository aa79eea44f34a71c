// What the control plane's components have in common in upstream's resources: extra arguments with their
// values, host paths mounted into the pod, and resource requests and limits.

/** ArgValues are the values of one extra argument (`--flag=a --flag=b`), as upstream's. */
export interface ArgValues {
  values: string[];
}

/** ExtraVolume is a host path mounted into a static pod. */
export interface ExtraVolume {
  name: string;
  hostPath: string;
  mountPath: string;
  readonly: boolean;
}

/** Resources are a pod's requests and limits (cpu, memory), as strings the pod spec takes. */
export interface Resources {
  requests: Record<string, string>;
  limits?: Record<string, string>;
}
