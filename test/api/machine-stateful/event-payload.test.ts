import { describe, expect, it } from 'vitest';
import { helloEvent, wireEvent } from '../../../src/api/machine-stateful/index.js';
import { decodeSpec } from '../../../src/cosi/resource/protobuf/index.js';

const decode = (ev: Record<string, unknown> | undefined, schema: Parameters<typeof decodeSpec>[1]) =>
  decodeSpec((ev!.data as { value: Uint8Array }).value, schema);

describe('event payloads', () => {
  it('hello is an empty Any with a fresh id', () => {
    expect(helloEvent('x')).toMatchObject({ id: 'x', actor_id: '', data: { type_url: '' } });
  });

  it('encodes a sequence event with its error under talos/runtime/<type>', () => {
    const ev = wireEvent({
      id: 'i',
      actorId: 'a',
      payload: {
        type: 'machine.SequenceEvent',
        sequence: 'reboot',
        action: 'STOP',
        error: { code: 'LOCKED', message: 'locked' },
      } as never,
    });
    expect(ev).toMatchObject({
      id: 'i',
      actor_id: 'a',
      data: { type_url: 'talos/runtime/machine.SequenceEvent' },
    });
    const fields = decode(ev, {
      sequence: { no: 1, kind: 'string' },
      action: { no: 2, kind: 'enum' },
      error: {
        no: 3,
        kind: 'message',
        schema: { code: { no: 1, kind: 'enum' }, message: { no: 2, kind: 'string' } },
      },
    });
    expect(fields).toMatchObject({ sequence: 'reboot', action: 2, error: { code: 1, message: 'locked' } });
  });

  it('encodes a machine status event with upstream stage numbers', () => {
    const ev = wireEvent({
      id: 'i',
      actorId: '',
      payload: {
        type: 'machine.MachineStatusEvent',
        stage: 'shutting down',
        status: { ready: false },
      } as never,
    });
    expect(decode(ev, { stage: { no: 1, kind: 'enum' } })).toMatchObject({ stage: 6 });
  });

  it('skips payload types it cannot encode', () => {
    expect(wireEvent({ id: 'i', actorId: '', payload: { type: 'machine.Unknown' } })).toBeUndefined();
  });
});
