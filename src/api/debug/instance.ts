// The containerd namespace a request's ContainerdInstance names. Keel runs one containerd for both
// drivers, so only the namespace matters: NS_SYSTEM is `system`, NS_CRI is Kubernetes' `k8s.io`.
import { ApiError } from '../errors.js';

const NAMESPACES: Readonly<Record<string, string>> = { NS_SYSTEM: 'system', NS_CRI: 'k8s.io' };

/** namespaceOf reads `containerd.namespace` (an enum name); NS_UNKNOWN or absent is invalid, as upstream. */
export function namespaceOf(instance: unknown): string {
  const ns = (instance as { namespace?: unknown } | undefined)?.namespace ?? 'NS_UNKNOWN';
  const name = NAMESPACES[String(ns)];
  if (!name) throw new ApiError('invalid-argument', `invalid namespace ${String(ns)}`);
  return name;
}
