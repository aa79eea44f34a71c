// Machine event payloads as protobuf bytes inside google.protobuf.Any, under `talos/runtime/<type>`.
import type { ProtoSchema } from '../../cosi/resource/proto-schema.js';
import { encodeSpec } from '../../cosi/resource/protobuf/index.js';
import type { EventLike } from './deps.js';

const SEQUENCE_ACTIONS = ['NOOP', 'START', 'STOP'];
const START_STOP = ['START', 'STOP'];
const ERROR_CODES = ['FATAL', 'LOCKED', 'CANCELED'];
const SERVICE_ACTIONS = [
  'INITIALIZED',
  'PREPARING',
  'WAITING',
  'RUNNING',
  'STOPPING',
  'FINISHED',
  'FAILED',
  'SKIPPED',
  'STARTING',
];

const MACHINE_STAGES = [
  'UNKNOWN',
  'BOOTING',
  'INSTALLING',
  'MAINTENANCE',
  'RUNNING',
  'REBOOTING',
  'SHUTTING_DOWN',
  'RESETTING',
  'UPGRADING',
];

const num = (names: readonly string[], v: unknown): number => Math.max(0, names.indexOf(String(v)));

const timestamp = { seconds: { no: 1, kind: 'int64' }, nanos: { no: 2, kind: 'int32' } } as const;

interface Encoder {
  readonly schema: ProtoSchema;
  readonly fields: (p: Readonly<Record<string, unknown>>) => Record<string, unknown>;
}

const ENCODERS: Readonly<Record<string, Encoder>> = {
  'machine.SequenceEvent': {
    schema: {
      sequence: { no: 1, kind: 'string' },
      action: { no: 2, kind: 'enum' },
      error: {
        no: 3,
        kind: 'message',
        schema: { code: { no: 1, kind: 'enum' }, message: { no: 2, kind: 'string' } },
      },
    },
    fields: (p) => {
      const err = p.error as { code: string; message: string } | undefined;
      return {
        sequence: p.sequence,
        action: num(SEQUENCE_ACTIONS, p.action),
        ...(err ? { error: { code: num(ERROR_CODES, err.code), message: err.message } } : {}),
      };
    },
  },
  'machine.PhaseEvent': {
    schema: { phase: { no: 1, kind: 'string' }, action: { no: 2, kind: 'enum' } },
    fields: (p) => ({ phase: p.phase, action: num(START_STOP, p.action) }),
  },
  'machine.TaskEvent': {
    schema: { task: { no: 1, kind: 'string' }, action: { no: 2, kind: 'enum' } },
    fields: (p) => ({ task: p.task, action: num(START_STOP, p.action) }),
  },
  'machine.ServiceStateEvent': {
    schema: {
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
    fields: (p) => {
      const h = p.health as { unknown: boolean; healthy: boolean; lastMessage: string; lastChange?: Date };
      return {
        service: p.service,
        action: num(SERVICE_ACTIONS, p.action),
        message: p.message,
        health: {
          unknown: h.unknown,
          healthy: h.healthy,
          lastMessage: h.lastMessage,
          ...(h.lastChange ? { lastChange: timestampOf(h.lastChange) } : {}),
        },
      };
    },
  },
  // published once the events bus carries machine status changes; reboot --wait ends on RUNNING + ready
  'machine.MachineStatusEvent': {
    schema: {
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
    fields: (p) => {
      const st = (p.status ?? {}) as {
        ready?: boolean;
        unmetConditions?: { name: string; reason: string }[];
      };
      return {
        stage: num(MACHINE_STAGES, String(p.stage).toUpperCase().replace(' ', '_')),
        status: { ready: st.ready === true, unmetConditions: st.unmetConditions ?? [] },
      };
    },
  },
  'machine.RestartEvent': {
    schema: { cmd: { no: 1, kind: 'int64' } },
    fields: (p) => ({ cmd: p.cmd }),
  },
};

function timestampOf(d: Date): { seconds: number; nanos: number } {
  const ms = d.getTime();
  return { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 };
}

/** wireEvent is one machine.Event; a payload type this API cannot encode yields undefined. */
export function wireEvent(ev: EventLike): Record<string, unknown> | undefined {
  const enc = ENCODERS[ev.payload.type];
  if (!enc) return undefined;
  return {
    id: ev.id,
    actor_id: ev.actorId,
    data: {
      type_url: `talos/runtime/${ev.payload.type}`,
      value: Buffer.from(
        encodeSpec(enc.fields(ev.payload as unknown as Record<string, unknown>), enc.schema),
      ),
    },
  };
}

/** helloEvent is the empty event talosctl waits for before it reads any other. */
export const helloEvent = (id: string): Record<string, unknown> => ({
  id,
  actor_id: '',
  data: { type_url: '', value: Buffer.alloc(0) },
});
