// Machine event payloads as protobuf bytes inside google.protobuf.Any, under `talos/runtime/<type>`.
import { encodeSpec } from '../../cosi/resource/protobuf/index.js';
import {
  ERROR_CODES,
  EVENT_SCHEMAS,
  MACHINE_STAGES,
  SEQUENCE_ACTIONS,
  SERVICE_ACTIONS,
  START_STOP,
} from '../event-schemas.js';
import type { EventLike } from './deps.js';

const num = (names: readonly string[], v: unknown): number => Math.max(0, names.indexOf(String(v)));

interface Encoder {
  readonly fields: (p: Readonly<Record<string, unknown>>) => Record<string, unknown>;
}

const ENCODERS: Readonly<Record<string, Encoder>> = {
  'machine.SequenceEvent': {
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
    fields: (p) => ({ phase: p.phase, action: num(START_STOP, p.action) }),
  },
  'machine.TaskEvent': {
    fields: (p) => ({ task: p.task, action: num(START_STOP, p.action) }),
  },
  'machine.ServiceStateEvent': {
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
  const schema = EVENT_SCHEMAS[ev.payload.type];
  if (!enc || !schema) return undefined;
  return {
    id: ev.id,
    actor_id: ev.actorId,
    data: {
      type_url: `talos/runtime/${ev.payload.type}`,
      value: Buffer.from(encodeSpec(enc.fields(ev.payload as unknown as Record<string, unknown>), schema)),
    },
  };
}

/** helloEvent is the empty event talosctl waits for before it reads any other. */
export const helloEvent = (id: string): Record<string, unknown> => ({
  id,
  actor_id: '',
  data: { type_url: '', value: Buffer.alloc(0) },
});
