// Resource limits PID 1 sets for itself and so for everything it starts.
import { isSysError } from '../sys/errno.js';
import { getrlimit, type Rlimit, type RlimitResource, setrlimit } from '../sys/rlimit.js';

/** MACHINED_RLIMITS: containers and etcd open many files; 1048576 is the kernel's default nr_open. */
export const MACHINED_RLIMITS: Readonly<Partial<Record<RlimitResource, Rlimit>>> = {
  NOFILE: { soft: 1_048_576n, hard: 1_048_576n },
};

export interface AppliedRlimit {
  resource: RlimitResource;
  wanted: Rlimit;
  set: Rlimit;
}

/**
 * applyRlimits sets each limit. Without CAP_SYS_RESOURCE the hard limit cannot rise (EPERM); the soft
 * limit is then raised as far as the hard one allows, and the result says what was set.
 */
export function applyRlimits(
  limits: Readonly<Partial<Record<RlimitResource, Rlimit>>> = MACHINED_RLIMITS,
): AppliedRlimit[] {
  const out: AppliedRlimit[] = [];
  for (const [resource, wanted] of Object.entries(limits) as [RlimitResource, Rlimit][]) {
    try {
      setrlimit(resource, wanted);
      out.push({ resource, wanted, set: wanted });
    } catch (e) {
      if (!isSysError(e, 'EPERM')) throw e;
      const { hard } = getrlimit(resource);
      const set = { soft: minBig(wanted.soft, hard), hard };
      setrlimit(resource, set);
      out.push({ resource, wanted, set });
    }
  }
  return out;
}

const minBig = (a: bigint, b: bigint): bigint => (a < b ? a : b);
