// Machine events: the payloads machined publishes on its bus, shaped as the machine API Events stream sends them.

/** ErrorCode mirrors common.Code: why a sequence did not run or did not finish. */
export type ErrorCode = 'FATAL' | 'LOCKED' | 'CANCELED';

export interface SequenceEvent {
  readonly type: 'machine.SequenceEvent';
  readonly sequence: string;
  readonly action: 'NOOP' | 'START' | 'STOP';
  readonly error?: { readonly code: ErrorCode; readonly message: string };
}

export interface PhaseEvent {
  readonly type: 'machine.PhaseEvent';
  readonly phase: string;
  readonly action: 'START' | 'STOP';
}

export interface TaskEvent {
  readonly type: 'machine.TaskEvent';
  readonly task: string;
  readonly action: 'START' | 'STOP';
}

/** ServiceStateAction is machine.ServiceStateEvent.Action, in upstream's enum order. */
export type ServiceStateAction =
  | 'INITIALIZED'
  | 'PREPARING'
  | 'WAITING'
  | 'RUNNING'
  | 'STOPPING'
  | 'FINISHED'
  | 'FAILED'
  | 'SKIPPED'
  | 'STARTING';

export interface ServiceHealthPayload {
  readonly unknown: boolean;
  readonly healthy: boolean;
  readonly lastMessage: string;
  readonly lastChange: Date | undefined;
}

export interface ServiceStateEvent {
  readonly type: 'machine.ServiceStateEvent';
  readonly service: string;
  readonly action: ServiceStateAction;
  readonly message: string;
  readonly health: ServiceHealthPayload;
}

export interface RestartEvent {
  readonly type: 'machine.RestartEvent';
  readonly cmd: number;
}

/** MachineStatusEvent reports the machine's stage and readiness (stage names as MachineStatus holds them). */
export interface MachineStatusEvent {
  readonly type: 'machine.MachineStatusEvent';
  readonly stage: string;
  readonly status: {
    readonly ready: boolean;
    readonly unmetConditions: readonly { readonly name: string; readonly reason: string }[];
  };
}

export type MachineEventPayload =
  | SequenceEvent
  | PhaseEvent
  | TaskEvent
  | ServiceStateEvent
  | RestartEvent
  | MachineStatusEvent;

/** MachineEvent is one published payload with the id (an xid) and actor the Events API reports. */
export interface MachineEvent<P extends MachineEventPayload = MachineEventPayload> {
  readonly id: string;
  /** the id of the API request (or '') that caused the event, for EventsRequest.with_actor_id */
  readonly actorId: string;
  /** milliseconds since the epoch, for tail_seconds */
  readonly time: number;
  readonly payload: P;
}

/** typeUrl is the type URL an event travels under: `talos/runtime/machine.SequenceEvent`. */
export const typeUrl = (p: MachineEventPayload): string => `talos/runtime/${p.type}`;
