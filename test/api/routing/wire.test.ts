import { Metadata } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { loadApiProto } from '../../../src/api/proto.js';
import { stampUnary, streamFailure, unaryFailure } from '../../../src/api/routing/envelope.js';
import { forwardMetadata } from '../../../src/api/routing/router.js';
import { routeOf } from '../../../src/api/routing/targets.js';
import { readFields, withHostname } from '../../../src/api/routing/wire.js';

const machine = loadApiProto().services.get('machine.MachineService')!;
const versionCodec = machine.Version!;
const dmesgCodec = machine.Dmesg!;

describe('envelope rewriting', () => {
  it('names the node in every element of a unary reply and keeps the rest', () => {
    const reply = versionCodec.responseSerialize({
      messages: [{ version: { tag: 'v1' } }, { metadata: { hostname: 'old' }, version: { tag: 'v2' } }],
    });
    const out = versionCodec.responseDeserialize(stampUnary('10.0.0.2', '/m', reply)) as {
      messages: { metadata: { hostname: string }; version: { tag: string } }[];
    };
    expect(out.messages.map((m) => [m.metadata.hostname, m.version.tag])).toEqual([
      ['10.0.0.2', 'v1'],
      ['10.0.0.2', 'v2'],
    ]);
  });

  it('keeps an error a handler put in a streamed message', () => {
    const msg = dmesgCodec.responseSerialize({ metadata: { error: 'disk gone' }, bytes: Buffer.from('x') });
    const out = dmesgCodec.responseDeserialize(withHostname(msg, 'n1')) as {
      metadata: { hostname: string; error: string };
    };
    expect(out.metadata).toEqual({ hostname: 'n1', error: 'disk gone' });
  });

  it('builds failure stand-ins that decode as any envelope reply', () => {
    const err = Object.assign(new Error('connection refused'), { code: 14 });
    const unary = versionCodec.responseDeserialize(unaryFailure('n2', err)) as {
      messages: { metadata: object }[];
    };
    expect(unary.messages[0]!.metadata).toEqual({
      hostname: 'n2',
      // the error text is the status error as Go prints it, as upstream's apid sends it
      error: 'rpc error: code = Unavailable desc = connection refused',
      status: { code: 14, message: 'connection refused' },
    });
    const item = dmesgCodec.responseDeserialize(streamFailure('n2', err)) as {
      metadata: { hostname: string };
    };
    expect(item.metadata.hostname).toBe('n2');
  });

  it('reports malformed bytes instead of guessing', () => {
    expect(() => readFields(Buffer.from([0x0a, 0x05, 0x01]))).toThrow(/runs past the end/);
    expect(() => readFields(Buffer.from([0x0b]))).toThrow(/wire type 3/);
    expect(() => withHostname(Buffer.from([0x08, 0x01]), 'n')).toThrow(/field 1 is not a metadata message/);
  });
});

describe('routeOf', () => {
  const md = (pairs: [string, string][]) => {
    const m = new Metadata();
    for (const [k, v] of pairs) m.add(k, v);
    return m;
  };
  const M = '/machine.MachineService/Version';
  it('serves locally without routing keys, for empty values, and on a proxied hop', () => {
    expect(routeOf(M, md([]))).toEqual({ kind: 'local' });
    expect(routeOf(M, md([['node', '']]))).toEqual({ kind: 'local' });
    expect(
      routeOf(
        M,
        md([
          ['proxyfrom', 'x'],
          ['nodes', 'a'],
        ]),
      ),
    ).toEqual({ kind: 'local' });
  });
  it('splits folded `nodes` values', () => {
    expect(
      routeOf(
        M,
        md([
          ['nodes', '10.0.0.1, 10.0.0.2'],
          ['nodes', '10.0.0.3'],
        ]),
      ),
    ).toEqual({
      kind: 'one-to-many',
      nodes: ['10.0.0.1', '10.0.0.2', '10.0.0.3'],
    });
  });
  it('routes `node` one-to-one and refuses `nodes` for envelope-less services', () => {
    expect(routeOf('/cosi.resource.State/Get', md([['node', 'a']]))).toEqual({
      kind: 'one-to-one',
      node: 'a',
    });
    expect(() => routeOf('/machine.ImageService/List', md([['nodes', 'a']]))).toThrow(/one-2-many/);
  });
  it('forwards the caller`s metadata minus routing keys, with proxyfrom and talos-role', () => {
    const out = forwardMetadata({
      metadata: md([
        ['nodes', 'a'],
        ['x-trace', '1'],
        ['talos-role', 'os:admin'],
      ]),
      roles: new Set(['os:reader']),
      self: '10.0.0.1:50000',
    });
    expect(out.toJSON()).toEqual({
      'x-trace': ['1'],
      proxyfrom: ['10.0.0.1:50000'],
      'talos-role': ['os:reader'],
    });
  });
});
