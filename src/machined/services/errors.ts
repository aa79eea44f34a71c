// ServiceError: the one error class of the services supervisor and its runners.

export type ServiceErrorCode =
  | 'unknown-service'
  | 'shutting-down'
  | 'dependency-cycle'
  | 'stop-timeout'
  | 'unsupported'
  | 'exited'
  | 'spawn-failed'
  | 'cgroup'
  | 'busy';

export class ServiceError extends Error {
  constructor(
    readonly code: ServiceErrorCode,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'ServiceError';
  }
}

const is = (e: unknown, c: ServiceErrorCode) => e instanceof ServiceError && e.code === c;
export const isUnknownService = (e: unknown): boolean => is(e, 'unknown-service');
/** isShuttingDown: new services are denied while machined shuts down, reboots or upgrades. */
export const isShuttingDown = (e: unknown): boolean => is(e, 'shutting-down');
