// Service states, in upstream's order, and the two summaries the supervisor waits on: up and down.
import type { ServiceStateAction } from '../events/event.js';

export const SERVICE_STATES = [
  'Initialized',
  'Preparing',
  'Waiting',
  'Running',
  'Stopping',
  'Finished',
  'Failed',
  'Skipped',
  'Starting',
] as const;

export type ServiceState = (typeof SERVICE_STATES)[number];

/** HealthStatus is a service's last health verdict; unknown until the first check completes. */
export interface HealthStatus {
  readonly unknown: boolean;
  readonly healthy: boolean;
  readonly lastMessage: string;
  readonly lastChange: Date | undefined;
}

export const UNKNOWN_HEALTH: HealthStatus = {
  unknown: true,
  healthy: false,
  lastMessage: '',
  lastChange: undefined,
};

/** isUp: dependents may start. Running counts only once healthy, when the service has a health check. */
export const isUp = (state: ServiceState, health: HealthStatus, checked: boolean): boolean =>
  state === 'Skipped' || (state === 'Running' && (!checked || health.healthy));

/** isDown: the service is not running and will not run again by itself. */
export const isDown = (state: ServiceState): boolean =>
  state === 'Failed' || state === 'Finished' || state === 'Skipped';

/** stateAction names a state as machine.ServiceStateEvent.Action does. */
export const stateAction = (s: ServiceState): ServiceStateAction => s.toUpperCase() as ServiceStateAction;
