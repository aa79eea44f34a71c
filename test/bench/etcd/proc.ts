// What /proc says about the node's processes: their memory, machined's children, and every process whose
// command line names the benchmark's directory (for the sweep after a node that did not stop cleanly).
import { readdirSync, readFileSync } from 'node:fs';

export interface Memory {
  /** MiB, from /proc/<pid>/status */
  readonly rss: number;
  readonly anon: number;
  readonly file: number;
}

/** memoryOf reads a process's resident set and its anonymous and file-backed parts. */
export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mib = (k: string) => {
    const m = new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!m) throw new Error(`/proc/${pid}/status has no ${k}`);
    return Number(m[1]) / 1024;
  };
  return { rss: mib('VmRSS'), anon: mib('RssAnon'), file: mib('RssFile') };
}

/** childrenOf lists a process's children as pid and command name. */
export function childrenOf(pid: number): { pid: number; comm: string }[] {
  const out: { pid: number; comm: string }[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const list = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    for (const c of list ? list.split(' ').map(Number) : [])
      try {
        out.push({ pid: c, comm: readFileSync(`/proc/${c}/comm`, 'utf8').trim() });
      } catch {
        // gone meanwhile
      }
  }
  return out;
}

/** pidsMentioning lists the processes with an argument that contains `text` (a directory of ours). */
export function pidsMentioning(text: string): number[] {
  const out: number[] = [];
  for (const p of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    if (Number(p) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(text)) out.push(Number(p));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
