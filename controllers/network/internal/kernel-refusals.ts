// What a spec controller does with a spec the kernel refuses (EEXIST, EINVAL, ENETUNREACH, …): log it
// with its errno, keep converging the other specs, and try that one again only once its backoff has
// passed (a timer wakes the controller then) or the spec changes. Without this, a refusal whose attempt
// itself makes netlink events would wake the controller into the same attempt, as fast as it can.
import type { ControllerRuntime, Logger } from '../../../src/cosi/controller/index.js';
import { isSysError } from '../../../src/sys/errno.js';

export interface RefusalOptions {
  /** the first retry's delay (default 250 ms); each further refusal doubles it */
  readonly initialMs?: number;
  /** the longest delay (default 5 s) */
  readonly maxMs?: number;
  /** replacements in a row that count as a refusal (default 3) */
  readonly churnLimit?: number;
  readonly now?: () => number;
}

interface Refusal {
  version: string;
  reason: string;
  attempts: number;
  notBefore: number;
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
  /** arm sets one timer for the earliest retry; call at the end of each pass */
  arm(): void;
  /** size is how many specs are waiting out a refusal */
  readonly size: number;
  close(): void;
}

/** errnoOf is a refusal's symbolic errno ('EEXIST'), or '' for an error that is not a system call's. */
export const errnoOf = (e: unknown): string => (isSysError(e) ? e.code : '');

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export function refusals(rt: ControllerRuntime, logger: Logger, opts: RefusalOptions = {}): Refusals {
  const initial = opts.initialMs ?? 250;
  const max = opts.maxMs ?? 5000;
  const now = opts.now ?? (() => performance.now());
  const churnLimit = opts.churnLimit ?? 3;
  const byId = new Map<string, Refusal>();
  const churn = new Map<string, { version: string; times: number }>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    due(id, version) {
      const r = byId.get(id);
      return !r || r.version !== version || now() >= r.notBefore;
    },
    refused(id, version, subject, err) {
      const reason = messageOf(err);
      const prev = byId.get(id);
      const attempts = prev && prev.version === version ? prev.attempts + 1 : 1;
      byId.set(id, {
        version,
        reason,
        attempts,
        notBefore: now() + Math.min(max, initial * 2 ** (attempts - 1)),
      });
      const fields = { errno: errnoOf(err), attempts, error: reason };
      if (prev?.reason === reason) logger.debug(`${subject}: still refused`, fields);
      else logger.error(`${subject}: ${reason}`, fields);
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
      logger.info(`${subject}: applied after ${r.attempts} refusal(s)`);
    },
    retain(ids) {
      for (const id of byId.keys()) if (!ids.has(id)) byId.delete(id);
      for (const id of churn.keys()) if (!ids.has(id)) churn.delete(id);
    },
    arm() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (byId.size === 0) return;
      const at = Math.min(...[...byId.values()].map((r) => r.notBefore));
      timer = setTimeout(() => rt.queueReconcile(), Math.max(0, at - now()));
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
