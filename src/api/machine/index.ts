// src/api/machine: the system-information RPCs of machine.MachineService (memory, processes, mounts, files,
// kernel log …) and systemInfoHandlers, which also brings the storage, time and inspect handlers.
import type { HandlerMap } from '../handlers.js';
import { dependenciesHandler } from '../inspect/dependencies.js';
import { disksHandler } from '../storage/disks.js';
import { timeCheckHandler, timeHandler } from '../time/time.js';
import { copyHandler } from './copy.js';
import type { SystemInfoDeps } from './deps.js';
import { diskUsageHandler } from './disk-usage.js';
import { dmesgHandler } from './dmesg.js';
import { cpuInfoHandler, hostnameHandler, loadAvgHandler, systemStatHandler } from './kernel-info.js';
import { listHandler } from './list.js';
import { memoryHandler } from './memory.js';
import { mountsHandler } from './mounts.js';
import { processesHandler } from './processes.js';
import { readHandler } from './read.js';

export { copyHandler, copyRoot } from './copy.js';
export type { SystemInfoDeps } from './deps.js';
export { diskUsageHandler, shown, type UsageFilter, usageFilter, usageMessage } from './disk-usage.js';
export { dmesgHandler, dmesgLine, kmsgEscaped, rfc3339Nano } from './dmesg.js';
export * from './errors.js';
export {
  cpuInfoHandler,
  cpuInfoMessage,
  hostnameHandler,
  loadAvgHandler,
  systemStatHandler,
  systemStatMessage,
} from './kernel-info.js';
export { fileInfoMessage, type ListPlan, listHandler, listPlan } from './list.js';
export { MEMINFO_FIELDS, memInfoMessage, memoryHandler } from './memory.js';
export { mountsHandler } from './mounts.js';
export { processesHandler, processMessage } from './processes.js';
export { readHandler } from './read.js';

const M = '/machine.MachineService/';

/** systemInfoHandlers is the handler map for startApiServer({ handlers }). */
export function systemInfoHandlers(deps: SystemInfoDeps = {}): HandlerMap {
  return {
    [`${M}Memory`]: memoryHandler(deps),
    [`${M}Processes`]: processesHandler(deps),
    [`${M}Mounts`]: mountsHandler(deps),
    [`${M}Hostname`]: hostnameHandler(deps),
    [`${M}LoadAvg`]: loadAvgHandler(deps),
    [`${M}SystemStat`]: systemStatHandler(deps),
    [`${M}CPUInfo`]: cpuInfoHandler(deps),
    [`${M}Read`]: readHandler(deps),
    [`${M}List`]: listHandler(),
    [`${M}Copy`]: copyHandler(),
    [`${M}DiskUsage`]: diskUsageHandler(),
    [`${M}Dmesg`]: dmesgHandler(deps),
    '/storage.StorageService/Disks': disksHandler(deps.procfs ? { procfs: deps.procfs } : {}),
    '/time.TimeService/Time': timeHandler(),
    '/time.TimeService/TimeCheck': timeCheckHandler(),
    ...(deps.dependencyGraph
      ? { '/inspect.InspectService/ControllerRuntimeDependencies': dependenciesHandler(deps.dependencyGraph) }
      : {}),
  };
}
