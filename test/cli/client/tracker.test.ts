// The action tracker's pure parts: how events read as progress, and which event ends the wait.
import { describe, expect, it } from 'vitest';
import { type DecodedEvent, decodeEvent, progressOf, reached } from '../../../src/cli/client/index.js';
import { encodeSpec } from '../../../src/cosi/resource/protobuf/spec-encode.js';

const ev = (type: string, fields: Record<string, unknown>, schema: Parameters<typeof encodeSpec>[1]) =>
  decodeEvent({
    id: 'e',
    actor_id: 'a',
    data: { type_url: `talos/runtime/machine.${type}`, value: encodeSpec(fields, schema) },
  }) as DecodedEvent;

const task = (name: string) =>
  ev(
    'TaskEvent',
    { task: name, action: 1 },
    { task: { no: 1, kind: 'string' }, action: { no: 2, kind: 'enum' } },
  );
const status = (stage: number, ready: boolean) =>
  ev(
    'MachineStatusEvent',
    { stage, status: { ready } },
    {
      stage: { no: 1, kind: 'enum' },
      status: { no: 2, kind: 'message', schema: { ready: { no: 1, kind: 'bool' } } },
    },
  );

describe('action tracker', () => {
  it('words task and status events as talosctl’s reporter does', () => {
    expect(progressOf(task('stopAllServices'))).toBe('task: stopAllServices action: STOP');
    expect(progressOf(status(5, false))).toBe('stage: REBOOTING ready: false unmetCond: []');
  });

  it('ends a shutdown on stopAllServices and a reboot on running and ready', () => {
    expect(reached('services-stopped', task('stopAllServices'))).toBe(true);
    expect(reached('services-stopped', task('other'))).toBe(false);
    expect(reached('machine-ready', status(4, true))).toBe(true);
    expect(reached('machine-ready', status(4, false))).toBe(false);
    expect(reached('machine-ready', status(5, true))).toBe(false);
  });

  it('skips payloads talosctl does not print', () => {
    expect(
      decodeEvent({ data: { type_url: 'talos/runtime/machine.RestartEvent', value: Buffer.alloc(0) } }),
    ).toBe(undefined);
  });
});
