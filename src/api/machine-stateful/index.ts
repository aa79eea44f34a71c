// src/api/machine-stateful: the machine RPCs that change or follow the node — apply-config, events,
// services, logs, containers and images, client config, kubeconfig, power — and the cluster health check,
// built on what the node wiring hands in (see deps.ts).
import { randomUUID } from 'node:crypto';
import { clusterHandlers } from '../cluster/index.js';
import { containersHandlers } from '../containers/index.js';
import type { HandlerMap } from '../handlers.js';
import { applyConfigurationHandler } from './apply-configuration.js';
import { generateClientConfigurationHandler } from './client-config.js';
import type { StatefulDeps } from './deps.js';
import { etcdHandlers } from './etcd.js';
import { eventsHandler } from './events.js';
import { kubeconfigHandler } from './kubeconfig.js';
import { logsContainersHandler, logsHandler } from './logs.js';
import { metaDeleteHandler, metaUnsupportedHandler, metaWriteHandler } from './meta.js';
import { rebootHandler, resetHandler, shutdownHandler } from './power.js';
import {
  serviceListHandler,
  serviceRestartHandler,
  serviceStartHandler,
  serviceStopHandler,
} from './services.js';

export { DEFAULT_TRY_TIMEOUT_MS, parseConfig } from './apply-configuration.js';
export { type ApplyMode, liveSafe, type ResolvedMode, resolveMode } from './apply-mode.js';
export { unifiedDiff } from './config-diff.js';
export type * from './deps.js';
export { helloEvent, wireEvent } from './event-payload.js';
export { KUBECONFIG_ENTRY, kubeconfigHandler } from './kubeconfig.js';
export { serviceInfoMessage } from './services.js';

const M = '/machine.MachineService/';

/** statefulHandlers is the handler map; RPCs whose dependency is absent stay UNIMPLEMENTED. */
export function statefulHandlers(deps: StatefulDeps): HandlerMap {
  const newActorId = deps.newActorId ?? randomUUID;
  return {
    [`${M}ApplyConfiguration`]: applyConfigurationHandler(deps),
    [`${M}Kubeconfig`]: kubeconfigHandler(deps.config),
    ...(deps.events ? { [`${M}Events`]: eventsHandler(deps.events) } : {}),
    ...(deps.etcd ? etcdHandlers(deps.etcd) : {}),
    ...(deps.services
      ? {
          [`${M}ServiceList`]: serviceListHandler(deps.services),
          [`${M}ServiceStart`]: serviceStartHandler(deps.services),
          [`${M}ServiceStop`]: serviceStopHandler(deps.services),
          [`${M}ServiceRestart`]: serviceRestartHandler(deps.services),
        }
      : {}),
    ...(deps.logs
      ? {
          [`${M}Logs`]: logsHandler(deps.logs, deps.containerd),
          [`${M}LogsContainers`]: logsContainersHandler(deps.logs),
        }
      : {}),
    ...(deps.containerd ? containersHandlers(deps.containerd) : {}),
    ...(deps.power
      ? {
          [`${M}Reboot`]: rebootHandler(deps.power, newActorId),
          [`${M}Shutdown`]: shutdownHandler(deps.power, newActorId),
        }
      : {}),
    [`${M}Reset`]: resetHandler(deps.reset, newActorId),
    ...(deps.meta === 'unsupported'
      ? { [`${M}MetaWrite`]: metaUnsupportedHandler(), [`${M}MetaDelete`]: metaUnsupportedHandler() }
      : deps.meta
        ? { [`${M}MetaWrite`]: metaWriteHandler(deps.meta), [`${M}MetaDelete`]: metaDeleteHandler(deps.meta) }
        : {}),
    ...(deps.clients
      ? { [`${M}GenerateClientConfiguration`]: generateClientConfigurationHandler(deps.clients) }
      : {}),
    ...(deps.state && deps.services && deps.etcd
      ? clusterHandlers({ config: deps.config, services: deps.services, etcd: deps.etcd, state: deps.state })
      : {}),
  };
}
