// /proc/stat: CPU times (in USER_HZ ticks, turned into seconds), interrupts, context switches, processes.
import { malformed } from './errors.js';

/** USER_HZ: the kernel reports CPU times in 1/100 s on every architecture Linux exports to user space. */
export const USER_HZ = 100;

/** CPUStat holds seconds spent in each mode. */
export interface CPUStat {
  readonly user: number;
  readonly nice: number;
  readonly system: number;
  readonly idle: number;
  readonly iowait: number;
  readonly irq: number;
  readonly softIrq: number;
  readonly steal: number;
  readonly guest: number;
  readonly guestNice: number;
}

export interface SoftIRQStat {
  readonly hi: number;
  readonly timer: number;
  readonly netTx: number;
  readonly netRx: number;
  readonly block: number;
  readonly blockIoPoll: number;
  readonly tasklet: number;
  readonly sched: number;
  readonly hrtimer: number;
  readonly rcu: number;
}

export interface SystemStat {
  /** unix seconds */
  readonly bootTime: number;
  readonly cpuTotal: CPUStat;
  /** indexed by CPU number; a CPU missing from the file (offline) is a hole filled with zeros */
  readonly cpu: readonly CPUStat[];
  readonly irqTotal: number;
  readonly irq: readonly number[];
  readonly contextSwitches: number;
  readonly processCreated: number;
  readonly processRunning: number;
  readonly processBlocked: number;
  readonly softIrqTotal: number;
  readonly softIrq: SoftIRQStat;
}

const CPU_FIELDS = [
  'user',
  'nice',
  'system',
  'idle',
  'iowait',
  'irq',
  'softIrq',
  'steal',
  'guest',
  'guestNice',
] as const;
const SOFTIRQ_FIELDS = [
  'hi',
  'timer',
  'netTx',
  'netRx',
  'block',
  'blockIoPoll',
  'tasklet',
  'sched',
  'hrtimer',
  'rcu',
] as const;

const zeroCPU = (): CPUStat => Object.fromEntries(CPU_FIELDS.map((k) => [k, 0])) as unknown as CPUStat;

/** numbersOf parses whitespace-separated counters, naming the line when one is not a number. */
function numbersOf(file: string, line: string, fields: readonly string[]): number[] {
  return fields.map((f) => {
    if (!/^\d+$/.test(f)) throw malformed(file, 'not a counter', line);
    return Number(f);
  });
}

/** parseStat reads the lines upstream's procfs knows; others (newer kernels) are ignored. */
export function parseStat(text: string, file = '/proc/stat'): SystemStat {
  let cpuTotal = zeroCPU();
  const cpu: CPUStat[] = [];
  const scalars = { btime: 0, ctxt: 0, processes: 0, procs_running: 0, procs_blocked: 0 };
  let irqTotal = 0;
  let irq: number[] = [];
  let softIrqTotal = 0;
  let softIrq = Object.fromEntries(SOFTIRQ_FIELDS.map((k) => [k, 0])) as unknown as SoftIRQStat;

  for (const line of text.split('\n')) {
    const parts = line.trim().split(/\s+/);
    const key = parts[0];
    if (!key) continue;
    const rest = parts.slice(1);
    if (key.startsWith('cpu')) {
      const ticks = numbersOf(file, line, rest);
      const stat = Object.fromEntries(
        CPU_FIELDS.map((k, i) => [k, (ticks[i] ?? 0) / USER_HZ]),
      ) as unknown as CPUStat;
      if (key === 'cpu') cpuTotal = stat;
      else {
        const n = Number(key.slice(3));
        if (!Number.isInteger(n)) throw malformed(file, 'bad cpu line', line);
        while (cpu.length < n) cpu.push(zeroCPU());
        cpu[n] = stat;
      }
    } else if (key === 'intr') {
      [irqTotal = 0, ...irq] = numbersOf(file, line, rest);
    } else if (key === 'softirq') {
      const [total = 0, ...each] = numbersOf(file, line, rest);
      softIrqTotal = total;
      softIrq = Object.fromEntries(SOFTIRQ_FIELDS.map((k, i) => [k, each[i] ?? 0])) as unknown as SoftIRQStat;
    } else if (key in scalars) {
      const [v] = numbersOf(file, line, rest.slice(0, 1));
      if (v === undefined) throw malformed(file, 'missing value', line);
      scalars[key as keyof typeof scalars] = v;
    }
  }
  return {
    bootTime: scalars.btime,
    cpuTotal,
    cpu,
    irqTotal,
    irq,
    contextSwitches: scalars.ctxt,
    processCreated: scalars.processes,
    processRunning: scalars.procs_running,
    processBlocked: scalars.procs_blocked,
    softIrqTotal,
    softIrq,
  };
}
