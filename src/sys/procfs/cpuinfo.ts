// /proc/cpuinfo: one "key\t: value" block per logical CPU. x86 names most fields; arm64 spells a few
// differently (BogoMIPS, Features), which map onto the same fields.
import { malformed } from './errors.js';

export interface CPUInfo {
  readonly processor: number;
  readonly vendorId: string;
  readonly cpuFamily: string;
  readonly model: string;
  readonly modelName: string;
  readonly stepping: string;
  readonly microcode: string;
  readonly cpuMHz: number;
  readonly cacheSize: string;
  readonly physicalId: string;
  readonly siblings: number;
  readonly coreId: string;
  readonly cpuCores: number;
  readonly apicId: string;
  readonly initialApicId: string;
  readonly fpu: string;
  readonly fpuException: string;
  readonly cpuIdLevel: number;
  readonly wp: string;
  readonly flags: readonly string[];
  readonly bugs: readonly string[];
  readonly bogoMips: number;
  readonly clFlushSize: number;
  readonly cacheAlignment: number;
  readonly addressSizes: string;
  readonly powerManagement: string;
}

const words = (v: string | undefined) => (v ? v.split(/\s+/).filter(Boolean) : []);
const num = (v: string | undefined) => {
  const n = Number.parseFloat(v ?? '');
  return Number.isFinite(n) ? n : 0;
};

/** cpuOf builds one CPU from a block's fields. */
function cpuOf(f: ReadonlyMap<string, string>): CPUInfo {
  const s = (k: string) => f.get(k) ?? '';
  return {
    processor: num(f.get('processor')),
    vendorId: f.get('vendor_id') ?? s('CPU implementer'),
    cpuFamily: f.get('cpu family') ?? s('CPU architecture'),
    model: f.get('model') ?? s('CPU part'),
    modelName: s('model name'),
    stepping: f.get('stepping') ?? s('CPU revision'),
    microcode: s('microcode'),
    cpuMHz: num(f.get('cpu MHz')),
    cacheSize: s('cache size'),
    physicalId: s('physical id'),
    siblings: num(f.get('siblings')),
    coreId: s('core id'),
    cpuCores: num(f.get('cpu cores')),
    apicId: s('apicid'),
    initialApicId: s('initial apicid'),
    fpu: s('fpu'),
    fpuException: s('fpu_exception'),
    cpuIdLevel: num(f.get('cpuid level')),
    wp: s('wp'),
    flags: words(f.get('flags') ?? f.get('Features')),
    bugs: words(f.get('bugs')),
    bogoMips: num(f.get('bogomips') ?? f.get('BogoMIPS')),
    clFlushSize: num(f.get('clflush size')),
    cacheAlignment: num(f.get('cache_alignment')),
    addressSizes: s('address sizes'),
    powerManagement: s('power management'),
  };
}

/** parseCPUInfo returns the CPUs in file order; blocks without a `processor` line (arm64's trailer) are skipped. */
export function parseCPUInfo(text: string, file = '/proc/cpuinfo'): CPUInfo[] {
  const out: CPUInfo[] = [];
  let block = new Map<string, string>();
  const flush = () => {
    if (block.has('processor')) out.push(cpuOf(block));
    block = new Map();
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      flush();
      continue;
    }
    const colon = line.indexOf(':');
    if (colon < 0) throw malformed(file, 'not a "key: value" line', line);
    const key = line.slice(0, colon).trim();
    // a second `processor` without a blank line between starts a new CPU all the same
    if (key === 'processor' && block.has('processor')) flush();
    block.set(key, line.slice(colon + 1).trim());
  }
  flush();
  return out;
}
