// MachineService.Processes: every process from /proc/<pid>, as upstream's ProcessInfo.

import type { ProcessInfo } from '../../sys/procfs/process.js';
import { readProcesses } from '../../sys/procfs/readers.js';
import { type Handler, unaryHandler } from '../handlers.js';
import type { SystemInfoDeps } from './deps.js';
import { mapped } from './errors.js';

export const processMessage = (p: ProcessInfo) => ({
  pid: p.pid,
  ppid: p.ppid,
  state: p.state,
  threads: p.threads,
  cpu_time: p.cpuTime,
  virtual_memory: String(p.virtualMemory),
  resident_memory: String(p.residentMemory),
  command: p.command,
  executable: p.executable,
  args: p.args,
  label: p.label,
});

export function processesHandler(deps: SystemInfoDeps = {}): Handler {
  return unaryHandler(async (_req, ctx) => {
    const procs = await mapped('Processes', () => readProcesses({ ...deps.procfs, signal: ctx.signal }));
    return { messages: [{ processes: procs.map(processMessage) }] };
  });
}
