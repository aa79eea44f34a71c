// /proc/<pid>/{stat,comm,cmdline}: the parts of a process that `ps` shows, parsed from the kernel's text.
import { malformed } from './errors.js';
import { USER_HZ } from './stat.js';

/** ProcStat is the subset of /proc/<pid>/stat that upstream reports (see proc(5) for field numbers). */
export interface ProcStat {
  readonly pid: number;
  /** the command name in parentheses; may itself contain spaces and parentheses */
  readonly comm: string;
  readonly state: string;
  readonly ppid: number;
  /** user and system time, in seconds */
  readonly cpuTime: number;
  readonly threads: number;
  /** bytes */
  readonly virtualMemory: bigint;
  /** pages */
  readonly residentPages: bigint;
}

/**
 * parseProcStat splits at the last ')' because comm may hold anything: the fields after it start with
 * state (3) and are counted from there.
 */
export function parseProcStat(text: string, file = '/proc/<pid>/stat'): ProcStat {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) throw malformed(file, 'no "(comm)"', text);
  const f = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  // f[0] is field 3 (state): field n is f[n - 3]
  const at = (n: number) => {
    const v = f[n - 3];
    if (v === undefined) throw malformed(file, `missing field ${n}`, text);
    return v;
  };
  const int = (n: number) => {
    const v = at(n);
    if (!/^-?\d+$/.test(v)) throw malformed(file, `field ${n} is not a number`, text);
    return v;
  };
  return {
    pid: Number(text.slice(0, open).trim()),
    comm: text.slice(open + 1, close),
    state: at(3),
    ppid: Number(int(4)),
    cpuTime: (Number(int(14)) + Number(int(15))) / USER_HZ,
    threads: Number(int(20)),
    virtualMemory: BigInt(int(23)),
    residentPages: BigInt(int(24)),
  };
}

/** parseCmdline joins the NUL-separated arguments with spaces, as `ps` shows them. */
export const parseCmdline = (raw: Buffer): string =>
  raw.toString('utf8').replace(/\0+$/, '').split('\0').join(' ');

/** ProcessInfo is one process as the machine API reports it. */
export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly state: string;
  readonly threads: number;
  readonly cpuTime: number;
  readonly virtualMemory: bigint;
  /** bytes */
  readonly residentMemory: bigint;
  readonly command: string;
  /** the target of /proc/<pid>/exe; '' for kernel threads, which have none */
  readonly executable: string;
  readonly args: string;
  /** the security label (/proc/<pid>/attr/current), '' when no LSM provides one */
  readonly label: string;
}

export interface ProcessSources {
  readonly stat: string;
  readonly comm: string;
  readonly cmdline: Buffer;
  readonly exe: string;
  readonly label: string;
  readonly pageSize: number;
}

/** processInfo combines the files of one process; comm is preferred to stat's copy, as upstream does. */
export function processInfo(src: ProcessSources, file?: string): ProcessInfo {
  const st = parseProcStat(src.stat, file);
  return {
    pid: st.pid,
    ppid: st.ppid,
    state: st.state,
    threads: st.threads,
    cpuTime: st.cpuTime,
    virtualMemory: st.virtualMemory,
    residentMemory: st.residentPages * BigInt(src.pageSize),
    command: src.comm.trim() || st.comm,
    executable: src.exe,
    args: parseCmdline(src.cmdline),
    label: src.label.replace(/\0/g, '').trim(),
  };
}
