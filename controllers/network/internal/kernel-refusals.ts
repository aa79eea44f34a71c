// What a spec controller does with a spec the kernel refuses (EEXIST, EINVAL, ENETUNREACH, …): log it
// with its errno, publish it as a KernelRefusal status (errno, attempts, next retry), keep converging the
// other specs, and try that one again only once its backoff has passed (a timer wakes the controller
// then) or the spec changes. Without this, a refusal whose attempt itself makes netlink events would
// wake the controller into the same attempt, as fast as it can.
import { KernelRefusal, type KernelRefusalSpec, kernelRefusalID } from '../../../resources/network/index.js';
import type { ControllerRuntime, Logger, SignalOptions } from '../../../src/cosi/controller/index.js';
import { isNotFound } from '../../../src/cosi/state/errors.js';
import { isSysError } from '../../../src/sys/errno.js';

/** RefusedKind names the specs a controller applies: the refusals' ids start with `<kind>/`. */
export interface RefusedKind {
  /** `link`, `address`, `route` */
  readonly kind: string;
  /** the spec's resource type, `LinkSpecs.net.talos.dev` */
  readonly type: string;
}

export interface RefusalOptions {
  /** the first retry's delay (default 250 ms); each further refusal doubles it */
  readonly initialMs?: number;
  /** the longest delay (default 5 s) */
  readonly maxMs?: number;
  /** replacements in a row that count as a refusal (default 3) */
  readonly churnLimit?: number;
  /** the monotonic clock backoff runs on (default performance.now) */
  readonly now?: () => number;
  /** the wall clock of the published times (default Date.now) */
  readonly clock?: () => number;
}

interface Refusal {
  version: string;
  notBefore: number;
  /** what its KernelRefusal says */
  status: KernelRefusalSpec;
}

export interface Refusals {
  /** due: never refused, changed since (another version), or its backoff has passed */
  due(id: string, version: string): boolean;
  /** refused records a failure and logs it: an error when it is new or its reason changed, debug after */
  refused(id: string, version: string, subject: string, err: unknown): void;
  /** applied forgets a refusal, logging the recovery */
  applied(id: string, subject: string): void;
  /**
   * replaced counts an object the kernel had to be corrected on; the same spec replaced `churnLimit`
   * times in a row (its own events waking the next pass) is a refusal: the kernel does not keep it so
   */
  replaced(id: string, version: string, subject: string): void;
  /** retain forgets the specs that are gone */
  retain(ids: ReadonlySet<string>): void;
  /**
   * flush publishes the refusals as KernelRefusal resources (written when changed, destroyed once
   * applied or gone) and sets one timer for the earliest retry; call at the end of each pass
   */
  flush(opts?: SignalOptions): Promise<void>;
  /** size is how many specs are waiting out a refusal */
  readonly size: number;
  close(): void;
}

/** errnoOf is a refusal's symbolic errno ('EEXIST'), or '' for an error that is not a system call's. */
export const errnoOf = (e: unknown): string => (isSysError(e) ? e.code : '');

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** refusals keeps the refusals of one spec controller, whose specs are `of`. */
export function refusals(
  rt: ControllerRuntime,
  logger: Logger,
  of: RefusedKind,
  opts: RefusalOptions = {},
): Refusals {
  const initial = opts.initialMs ?? 250;
  const max = opts.maxMs ?? 5000;
  const now = opts.now ?? (() => performance.now());
  const clock = opts.clock ?? Date.now;
  const churnLimit = opts.churnLimit ?? 3;
  const byId = new Map<string, Refusal>();
  const churn = new Map<string, { version: string; times: number }>();
  // what the state holds, by spec id; undefined until the first flush has read it
  let published: Map<string, KernelRefusalSpec> | undefined;
  const prefix = kernelRefusalID(of.kind, '');
  let timer: ReturnType<typeof setTimeout> | undefined;

  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (byId.size === 0) return;
    const at = Math.min(...[...byId.values()].map((r) => r.notBefore));
    timer = setTimeout(() => rt.queueReconcile(), Math.max(0, at - now()));
  };

  return {
    due(id, version) {
      const r = byId.get(id);
      return !r || r.version !== version || now() >= r.notBefore;
    },
    refused(id, version, subject, err) {
      const message = messageOf(err);
      const prev = byId.get(id);
      const again = prev !== undefined && prev.version === version;
      const attempts = again ? prev.status.attempts + 1 : 1;
      const delay = Math.min(max, initial * 2 ** (attempts - 1));
      const errno = errnoOf(err);
      const wall = clock();
      byId.set(id, {
        version,
        notBefore: now() + delay,
        status: {
          specType: of.type,
          specID: id,
          errno,
          message,
          attempts,
          since: again ? prev.status.since : wall,
          nextRetry: wall + delay,
        },
      });
      const fields = { errno, attempts, error: message };
      if (prev?.status.message === message) logger.debug(`${subject}: still refused`, fields);
      else logger.error(`${subject}: ${message}`, fields);
    },
    replaced(id, version, subject) {
      const c = churn.get(id);
      const times = c && c.version === version ? c.times + 1 : 1;
      churn.set(id, { version, times });
      if (times < churnLimit) return;
      churn.delete(id);
      this.refused(
        id,
        version,
        subject,
        new Error(`the kernel does not keep it as specified (replaced ${times} times in a row)`),
      );
    },
    applied(id, subject) {
      churn.delete(id);
      const r = byId.get(id);
      if (!r) return;
      byId.delete(id);
      logger.info(`${subject}: applied after ${r.status.attempts} refusal(s)`);
    },
    retain(ids) {
      for (const id of byId.keys()) if (!ids.has(id)) byId.delete(id);
      for (const id of churn.keys()) if (!ids.has(id)) churn.delete(id);
    },
    async flush({ signal } = {}) {
      const o = signal ? { signal } : {};
      if (!published) {
        // this controller's refusals from before a restart are in the state, and the new run knows none
        published = new Map();
        for (const r of await rt.list(KernelRefusal, o))
          if (r.metadata.id.startsWith(prefix)) published.set(r.metadata.id.slice(prefix.length), r.spec);
      }
      for (const [id, r] of byId) {
        const have = published.get(id);
        if (have && KernelRefusal.codec.equal(have, r.status)) continue;
        await rt.modify(KernelRefusal, kernelRefusalID(of.kind, id), () => ({ ...r.status }), o);
        published.set(id, r.status);
      }
      for (const id of published.keys()) {
        if (byId.has(id)) continue;
        try {
          await rt.destroy(KernelRefusal.pointer(kernelRefusalID(of.kind, id)), o);
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
        published.delete(id);
      }
      arm();
    },
    get size() {
      return byId.size;
    },
    close() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
