// waitid(2) and waitpid(2), never blocking: every call carries WNOHANG, since blocking would stall the event loop.
import { check, SysError } from './errno.js';
import { lastErrno, libc } from './libc.js';

export const P_ALL = 0;
export const P_PID = 1;
export const P_PGID = 2;

export const WNOHANG = 0x1;
export const WSTOPPED = 0x2;
export const WEXITED = 0x4;
export const WCONTINUED = 0x8;
/** WNOWAIT leaves the child waitable: a peek that does not reap */
export const WNOWAIT = 0x01000000;

/** si_code values for SIGCHLD. */
export const CLD = { EXITED: 1, KILLED: 2, DUMPED: 3, TRAPPED: 4, STOPPED: 5, CONTINUED: 6 } as const;

/** Layout of siginfo_t on x86_64 for SIGCHLD: 128 bytes, the union starts at 16. */
export const SIGINFO = { size: 128, signo: 0, errno: 4, code: 8, pid: 16, uid: 20, status: 24 } as const;

const ECHILD = 10;
const EINTR = 4;

const waitid_ = libc.func('int waitid(int idtype, int id, _Out_ uint8_t *infop, int options)');
const siginfo = Buffer.alloc(SIGINFO.size);
const waitpid_ = libc.func('int waitpid(int pid, _Out_ int *status, int options)');

/** ExitStatus is how a process ended. */
export type ExitStatus =
  | { readonly kind: 'exited'; readonly code: number }
  | { readonly kind: 'signaled'; readonly signal: number; readonly coreDumped: boolean };

export interface WaitInfo {
  pid: number;
  uid: number;
  /** CLD_* */
  code: number;
  /** exit code for CLD_EXITED, signal number otherwise */
  status: number;
}

/** decodeSiginfo reads the SIGCHLD fields of a siginfo_t buffer; pid 0 means nothing was waitable. */
export function decodeSiginfo(buf: Buffer): WaitInfo {
  return {
    pid: buf.readInt32LE(SIGINFO.pid),
    uid: buf.readUInt32LE(SIGINFO.uid),
    code: buf.readInt32LE(SIGINFO.code),
    status: buf.readInt32LE(SIGINFO.status),
  };
}

/** exitStatusOf maps a siginfo record to an ExitStatus. */
export const exitStatusOf = (w: WaitInfo): ExitStatus =>
  w.code === CLD.EXITED
    ? { kind: 'exited', code: w.status }
    : { kind: 'signaled', signal: w.status, coreDumped: w.code === CLD.DUMPED };

/** decodeWaitStatus decodes the int status of waitpid (the W* macros). */
export function decodeWaitStatus(status: number): ExitStatus {
  const sig = status & 0x7f;
  if (sig === 0) return { kind: 'exited', code: (status >> 8) & 0xff };
  return { kind: 'signaled', signal: sig, coreDumped: (status & 0x80) !== 0 };
}

/**
 * waitid calls waitid(2) with WNOHANG added. It returns undefined when nothing is waitable, or when the
 * caller has no children at all (ECHILD).
 */
export function waitid(idtype: number, id: number, options: number): WaitInfo | undefined {
  for (;;) {
    // with WNOHANG and nothing waitable only a zero si_pid tells (man 2 waitid), so clear it first
    siginfo.writeInt32LE(0, SIGINFO.pid);
    if (waitid_(idtype, id, siginfo, options | WNOHANG) === 0) {
      const info = decodeSiginfo(siginfo);
      return info.pid === 0 ? undefined : info;
    }
    const errno = lastErrno();
    if (errno === EINTR) continue;
    if (errno === ECHILD) return undefined;
    throw new SysError('waitid', errno, [idtype, id]);
  }
}

/** waitpid reaps `pid` if it has ended (WNOHANG added); undefined while it runs or when it is not our child. */
export function waitpid(pid: number, options = 0): { pid: number; status: ExitStatus } | undefined {
  const out = [0];
  for (;;) {
    const r = waitpid_(pid, out, options | WNOHANG);
    if (r > 0) return { pid: r, status: decodeWaitStatus(out[0]!) };
    if (r === 0) return undefined;
    const errno = lastErrno();
    if (errno === EINTR) continue;
    if (errno === ECHILD) return undefined;
    check(-1, 'waitpid', pid);
  }
}
