// Machine events as talosctl reads them: the Any payload decoded by its type URL into a source and a message
// (the SOURCE and MESSAGE columns); payload types talosctl does not know are skipped, as it skips them.
import {
  EVENT_SCHEMAS,
  MACHINE_STAGES,
  SEQUENCE_ACTIONS,
  SERVICE_ACTIONS,
  START_STOP,
} from '../../api/event-schemas.js';
import { decodeSpec } from '../../cosi/resource/protobuf/spec-decode.js';

export { MACHINE_STAGES };

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

const name = (names: readonly string[], v: unknown) => names[Number(v ?? 0)] ?? String(v);

type Describe = (f: Record<string, unknown>) => [source: string, message: string];

/** The payloads talosctl prints, with the wire fields this client needs and how it words them. */
const PAYLOADS: Readonly<Record<string, { readonly describe: Describe }>> = {
  'machine.SequenceEvent': {
    describe: (f) => {
      const err = f.error as { message?: string } | null | undefined;
      return [String(f.sequence), err?.message ? `error: ${err.message}` : name(SEQUENCE_ACTIONS, f.action)];
    },
  },
  'machine.PhaseEvent': {
    describe: (f) => [String(f.phase), name(START_STOP, f.action)],
  },
  'machine.TaskEvent': {
    describe: (f) => [String(f.task), name(START_STOP, f.action)],
  },
  'machine.ServiceStateEvent': {
    describe: (f) => [String(f.service), `${name(SERVICE_ACTIONS, f.action)}: ${f.message}`],
  },
  'machine.ConfigLoadErrorEvent': {
    describe: (f) => ['error', String(f.error)],
  },
  'machine.ConfigValidationErrorEvent': {
    describe: (f) => ['error', String(f.error)],
  },
  'machine.AddressEvent': {
    describe: (f) => [String(f.hostname), `ADDRESSES: ${(f.addresses as string[]).join(',')}`],
  },
  'machine.MachineStatusEvent': {
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
  const schema = EVENT_SCHEMAS[type];
  if (!payload || !schema) return undefined;
  const fields = decodeSpec(ev.data?.value ?? new Uint8Array(0), schema);
  const [source, message] = payload.describe(fields);
  return { id: ev.id ?? '', actorId: ev.actor_id ?? '', typeUrl, type, source, message, fields };
}
