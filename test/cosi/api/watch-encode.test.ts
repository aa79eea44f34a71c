// The hand-written Watch response against the proto loader's: the same message back for every event shape,
// and one message per snapshot however many events carry it.
import { describe, expect, it } from 'vitest';
import { toWireEvent } from '../../../src/cosi/api/event-codec.js';
import { loadCosiProto } from '../../../src/cosi/api/proto.js';
import { encodeWatchResponse, snapshotMessage } from '../../../src/cosi/api/watch-encode.js';
import type { WatchResponse } from '../../../src/cosi/api/wire.js';
import { Tombstone } from '../../../src/cosi/resource/resource.js';
import { PathResource } from '../../../src/cosi/testing/resources.js';

const { Watch } = loadCosiProto().stateService;
/**
 * canonical drops proto3's zero values: the loader writes a set field even when it holds one (an empty
 * owner or proto_spec, the CREATED event type), Go and the hand encoder leave it out, and every reader
 * takes the two alike
 */
function canonical(v: unknown): unknown {
  if (v instanceof Uint8Array || typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(canonical);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const zero =
      x === '' || x === 0 || x === '0' || (x instanceof Uint8Array && x.length === 0) || x === 'CREATED';
    if (!zero) out[k] = canonical(x);
  }
  return out;
}
const viaLoader = (m: WatchResponse) => canonical(Watch.responseDeserialize(Watch.responseSerialize(m)));
const viaHand = (m: WatchResponse) => canonical(Watch.responseDeserialize(encodeWatchResponse(m)));

const resource = (id: string, label?: string) => {
  const r = PathResource.new('default', id);
  r.metadata.version = 3;
  r.metadata.created = 1_700_000_000_123;
  r.metadata.updated = 1_700_000_500_456;
  if (label) r.metadata.labels.set('ünïcode', label);
  r.metadata.finalizers.add('keep');
  return r;
};

describe('encodeWatchResponse', () => {
  it('decodes to what the loader’s own encoding decodes to, for every event shape', () => {
    const a = resource('a', 'x'.repeat(300));
    const b = resource('b');
    const messages: WatchResponse[] = [
      {},
      { event: [toWireEvent({ type: 'created', resource: a })] },
      { event: [toWireEvent({ type: 'updated', resource: b, old: a })] },
      { event: [toWireEvent({ type: 'destroyed', resource: b })] },
      {
        event: [
          toWireEvent({
            type: 'bootstrapped',
            resource: Tombstone.of({ namespace: 'default', type: PathResource.type, id: '' }),
            bookmark: new Uint8Array([0, 1, 255]),
          }),
        ],
      },
      { event: [toWireEvent({ type: 'errored', error: new Error('the watch failed: ✗') })] },
      { event: [toWireEvent({ type: 'noop', bookmark: new Uint8Array() })] },
      {
        event: [toWireEvent({ type: 'created', resource: a }), toWireEvent({ type: 'created', resource: b })],
      },
    ];
    for (const m of messages) expect(viaHand(m)).toEqual(viaLoader(m));
  });

  it('makes one message of a snapshot, however many events carry it', () => {
    const a = resource('a');
    expect(snapshotMessage(a)).toBe(snapshotMessage(a));
    expect(snapshotMessage(a)).not.toBe(snapshotMessage(a.deepCopy()));
  });
});
