// The small read-only RPCs over kernel files: Hostname, LoadAvg, SystemStat and CPUInfo.

import type { CPUInfo } from '../../sys/procfs/cpuinfo.js';
import { readCPUInfo, readHostname, readLoadAvg, readStat } from '../../sys/procfs/readers.js';
import type { CPUStat, SystemStat } from '../../sys/procfs/stat.js';
import { type Handler, unaryHandler } from '../handlers.js';
import type { SystemInfoDeps } from './deps.js';
import { mapped } from './errors.js';

export function hostnameHandler(deps: SystemInfoDeps = {}): Handler {
  return unaryHandler(async () => ({
    messages: [{ hostname: await mapped('Hostname', () => readHostname(deps.procfs)) }],
  }));
}

export function loadAvgHandler(deps: SystemInfoDeps = {}): Handler {
  return unaryHandler(async () => {
    const l = await mapped('LoadAvg', () => readLoadAvg(deps.procfs));
    return { messages: [{ load1: l.load1, load5: l.load5, load15: l.load15 }] };
  });
}

const cpuStatMessage = (c: CPUStat) => ({
  user: c.user,
  nice: c.nice,
  system: c.system,
  idle: c.idle,
  iowait: c.iowait,
  irq: c.irq,
  soft_irq: c.softIrq,
  steal: c.steal,
  guest: c.guest,
  guest_nice: c.guestNice,
});

export const systemStatMessage = (s: SystemStat) => ({
  boot_time: String(s.bootTime),
  cpu_total: cpuStatMessage(s.cpuTotal),
  cpu: s.cpu.map(cpuStatMessage),
  irq_total: String(s.irqTotal),
  irq: s.irq.map(String),
  context_switches: String(s.contextSwitches),
  process_created: String(s.processCreated),
  process_running: String(s.processRunning),
  process_blocked: String(s.processBlocked),
  soft_irq_total: String(s.softIrqTotal),
  soft_irq: {
    hi: String(s.softIrq.hi),
    timer: String(s.softIrq.timer),
    net_tx: String(s.softIrq.netTx),
    net_rx: String(s.softIrq.netRx),
    block: String(s.softIrq.block),
    block_io_poll: String(s.softIrq.blockIoPoll),
    tasklet: String(s.softIrq.tasklet),
    sched: String(s.softIrq.sched),
    hrtimer: String(s.softIrq.hrtimer),
    rcu: String(s.softIrq.rcu),
  },
});

export function systemStatHandler(deps: SystemInfoDeps = {}): Handler {
  return unaryHandler(async () => ({
    messages: [systemStatMessage(await mapped('SystemStat', () => readStat(deps.procfs)))],
  }));
}

export const cpuInfoMessage = (c: CPUInfo) => ({
  processor: c.processor,
  vendor_id: c.vendorId,
  cpu_family: c.cpuFamily,
  model: c.model,
  model_name: c.modelName,
  stepping: c.stepping,
  microcode: c.microcode,
  cpu_mhz: c.cpuMHz,
  cache_size: c.cacheSize,
  physical_id: c.physicalId,
  siblings: c.siblings,
  core_id: c.coreId,
  cpu_cores: c.cpuCores,
  apic_id: c.apicId,
  initial_apic_id: c.initialApicId,
  fpu: c.fpu,
  fpu_exception: c.fpuException,
  cpu_id_level: c.cpuIdLevel,
  wp: c.wp,
  flags: [...c.flags],
  bugs: [...c.bugs],
  bogo_mips: c.bogoMips,
  cl_flush_size: c.clFlushSize,
  cache_alignment: c.cacheAlignment,
  address_sizes: c.addressSizes,
  power_management: c.powerManagement,
});

export function cpuInfoHandler(deps: SystemInfoDeps = {}): Handler {
  return unaryHandler(async () => ({
    messages: [{ cpu_info: (await mapped('CPUInfo', () => readCPUInfo(deps.procfs))).map(cpuInfoMessage) }],
  }));
}
