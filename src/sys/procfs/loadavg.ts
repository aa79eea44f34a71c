// /proc/loadavg: "0.50 0.40 0.30 2/345 6789".
import { malformed } from './errors.js';

export interface LoadAvg {
  readonly load1: number;
  readonly load5: number;
  readonly load15: number;
  /** runnable scheduling entities / all of them */
  readonly running: number;
  readonly total: number;
  readonly lastPid: number;
}

export function parseLoadAvg(text: string, file = '/proc/loadavg'): LoadAvg {
  const m = /^(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+)\/(\d+)\s+(\d+)\s*$/.exec(text);
  if (!m) throw malformed(file, 'unexpected format', text);
  return {
    load1: Number(m[1]),
    load5: Number(m[2]),
    load15: Number(m[3]),
    running: Number(m[4]),
    total: Number(m[5]),
    lastPid: Number(m[6]),
  };
}
