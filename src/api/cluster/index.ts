// src/api/cluster: ClusterService — the cluster health check talosctl's `health` runs on a control plane,
// its checks (checks/) as pure assertions over what is read from the nodes and from Kubernetes.
import type { HandlerMap } from '../handlers.js';
import type { ClusterDeps } from './deps.js';
import { healthCheckHandler } from './health-check.js';

export { type CheckEnv, type ClusterCheck, DEFAULT_CLUSTER_CHECKS } from './checks/default.js';
export type { ClusterDeps } from './deps.js';
export { healthCheckHandler } from './health-check.js';

export const clusterHandlers = (deps: ClusterDeps): HandlerMap => ({
  '/cluster.ClusterService/HealthCheck': healthCheckHandler(deps),
});
