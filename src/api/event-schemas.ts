// The machine.Event payload messages as protobuf schemas (field numbers of machine.proto), and their enum
// names in wire order: one table for the server that encodes events and the clients that decode them.
import type { ProtoSchema } from '../cosi/resource/proto-schema.js';

export const SEQUENCE_ACTIONS = ['NOOP', 'START', 'STOP'] as const;
export const START_STOP = ['START', 'STOP'] as const;
/** common.Code */
export const ERROR_CODES = ['FATAL', 'LOCKED', 'CANCELED'] as const;
export const SERVICE_ACTIONS = [
  'INITIALIZED',
  'PREPARING',
  'WAITING',
  'RUNNING',
  'STOPPING',
  'FINISHED',
  'FAILED',
  'SKIPPED',
  'STARTING',
] as const;
export const MACHINE_STAGES = [
  'UNKNOWN',
  'BOOTING',
  'INSTALLING',
  'MAINTENANCE',
  'RUNNING',
  'REBOOTING',
  'SHUTTING_DOWN',
  'RESETTING',
  'UPGRADING',
] as const;

const timestamp: ProtoSchema = { seconds: { no: 1, kind: 'int64' }, nanos: { no: 2, kind: 'int32' } };
const errorText: ProtoSchema = { error: { no: 1, kind: 'string' } };

/** EVENT_SCHEMAS: payload type (`machine.SequenceEvent` …) → its message schema. */
export const EVENT_SCHEMAS: Readonly<Record<string, ProtoSchema>> = {
  'machine.SequenceEvent': {
    sequence: { no: 1, kind: 'string' },
    action: { no: 2, kind: 'enum' },
    error: {
      no: 3,
      kind: 'message',
      schema: { code: { no: 1, kind: 'enum' }, message: { no: 2, kind: 'string' } },
    },
  },
  'machine.PhaseEvent': { phase: { no: 1, kind: 'string' }, action: { no: 2, kind: 'enum' } },
  'machine.TaskEvent': { task: { no: 1, kind: 'string' }, action: { no: 2, kind: 'enum' } },
  'machine.ServiceStateEvent': {
    service: { no: 1, kind: 'string' },
    action: { no: 2, kind: 'enum' },
    message: { no: 3, kind: 'string' },
    health: {
      no: 4,
      kind: 'message',
      schema: {
        unknown: { no: 1, kind: 'bool' },
        healthy: { no: 2, kind: 'bool' },
        lastMessage: { no: 3, kind: 'string' },
        lastChange: { no: 4, kind: 'message', schema: timestamp },
      },
    },
  },
  'machine.MachineStatusEvent': {
    stage: { no: 1, kind: 'enum' },
    status: {
      no: 2,
      kind: 'message',
      schema: {
        ready: { no: 1, kind: 'bool' },
        unmetConditions: {
          no: 2,
          kind: 'message',
          repeated: true,
          schema: { name: { no: 1, kind: 'string' }, reason: { no: 2, kind: 'string' } },
        },
      },
    },
  },
  'machine.RestartEvent': { cmd: { no: 1, kind: 'int64' } },
  'machine.ConfigLoadErrorEvent': errorText,
  'machine.ConfigValidationErrorEvent': errorText,
  'machine.AddressEvent': {
    hostname: { no: 1, kind: 'string' },
    addresses: { no: 2, kind: 'string', repeated: true },
  },
};
