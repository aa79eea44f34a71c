// ServiceDefinition: what the supervisor needs to know about a service, as plain data and functions.
import type { Backoff } from './backoff.js';
import type { Condition } from './condition.js';
import type { HealthCheck, HealthSettings } from './health.js';
import type { RestartPolicy } from './restart.js';
import type { LogSink, Runner } from './runner.js';
import type { ServiceState } from './state.js';

export interface ServiceContext {
  /** aborted when the service is stopped */
  readonly signal: AbortSignal;
  /** the service's own log ring */
  readonly log: LogSink;
}

export interface ServiceDefinition {
  readonly id: string;
  /** services that must be up before this one prepares */
  readonly dependsOn?: readonly string[];
  /** extra start condition (a file, a resource, a mounted volume …) */
  readonly condition?: Condition;
  /** runs once per start, before the first attempt */
  readonly pre?: (ctx: ServiceContext) => Promise<void> | void;
  /** the runner for this start; null means the service is not needed here (state Skipped) */
  readonly runner: (ctx: ServiceContext) => Runner | null | Promise<Runner | null>;
  /** runs once when the service ends for good, with its final state */
  readonly post?: (ctx: ServiceContext, state: ServiceState) => Promise<void> | void;
  /** default Forever */
  readonly restart?: RestartPolicy;
  /** default exponentialBackoff() */
  readonly backoff?: Backoff;
  readonly health?: { readonly check: HealthCheck; readonly settings?: Partial<HealthSettings> };
  /**
   * whether ServiceStart/Stop/Restart may drive it (upstream's API*Allowed); default false: the node's own
   * services (machined, apid, udevd …) are not for a client to stop, or it could cut off the API itself
   */
  readonly apiControl?: boolean;
}
