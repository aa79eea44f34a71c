// Machine events as talosctl reads them: the Any payload decoded by its type URL into a source and a message
// (the SOURCE and MESSAGE columns); payload types talosctl does not know are skipped, as it skips them.
import type { ProtoSchema } from '../../cosi/resource/proto-schema.js';
import { decodeSpec } from '../../cosi/resource/protobuf/spec-decode.js';

export interface WireEvent extends Record<string, unknown> {
  data?: { type_url?: string; value?: Uint8Array };
  id?: string;
  actor_id?: string;
}

export interface DecodedEvent {
  readonly id: string;
  readonly actorId: string;
  readonly typeUrl: string;
  /** the payload's short type name, e.g. `machine.SequenceEvent` */
  readonly type: string;
  readonly source: string;
  readonly message: string;
  readonly fields: Record<string, unknown>;
}

const SEQUENCE_ACTIONS = ['NOOP', 'START', 'STOP'];
const START_STOP = ['START', 'STOP'];
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
];
const name = (names: readonly string[], v: unknown) => names[Number(v ?? 0)] ?? String(v);

type Describe = (f: Record<string, unknown>) => [source: string, message: string];

/** The payloads talosctl prints, with the wire fields this client needs and how it words them. */
const PAYLOADS: Readonly<Record<string, { schema: ProtoSchema; describe: Describe }>> = {
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
    describe: (f) => {
      const err = f.error as { message?: string } | null | undefined;
      return [String(f.sequence), err?.message ? `error: ${err.message}` : name(SEQUENCE_ACTIONS, f.action)];
    },
  },
  'machine.PhaseEvent': {
    schema: { phase: { no: 1, kind: 'string' }, action: { no: 2, kind: 'enum' } },
    describe: (f) => [String(f.phase), name(START_STOP, f.action)],
  },
  'machine.TaskEvent': {
    schema: { task: { no: 1, kind: 'string' }, action: { no: 2, kind: 'enum' } },
    describe: (f) => [String(f.task), name(START_STOP, f.action)],
  },
  'machine.ServiceStateEvent': {
    schema: {
      service: { no: 1, kind: 'string' },
      action: { no: 2, kind: 'enum' },
      message: { no: 3, kind: 'string' },
    },
    describe: (f) => [String(f.service), `${name(SERVICE_ACTIONS, f.action)}: ${f.message}`],
  },
  'machine.ConfigLoadErrorEvent': {
    schema: { error: { no: 1, kind: 'string' } },
    describe: (f) => ['error', String(f.error)],
  },
  'machine.ConfigValidationErrorEvent': {
    schema: { error: { no: 1, kind: 'string' } },
    describe: (f) => ['error', String(f.error)],
  },
  'machine.AddressEvent': {
    schema: { hostname: { no: 1, kind: 'string' }, addresses: { no: 2, kind: 'string', repeated: true } },
    describe: (f) => [String(f.hostname), `ADDRESSES: ${(f.addresses as string[]).join(',')}`],
  },
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
    describe: (f) => {
      const st = (f.status ?? {}) as { ready?: boolean; unmetConditions?: { name: string }[] };
      const unmet = (st.unmetConditions ?? []).map((c) => c.name).join(' ');
      return [name(MACHINE_STAGES, f.stage), `ready: ${st.ready === true}, unmet conditions: [${unmet}]`];
    },
  },
};

/** decodeEvent reads one event; undefined means a payload talosctl does not print either. */
export function decodeEvent(ev: WireEvent): DecodedEvent | undefined {
  const typeUrl = ev.data?.type_url ?? '';
  const type = typeUrl.slice(typeUrl.lastIndexOf('/') + 1);
  const payload = PAYLOADS[type];
  if (!payload) return undefined;
  const fields = decodeSpec(ev.data?.value ?? new Uint8Array(0), payload.schema);
  const [source, message] = payload.describe(fields);
  return { id: ev.id ?? '', actorId: ev.actor_id ?? '', typeUrl, type, source, message, fields };
}
