import { createRequire } from 'node:module';
import { fromJSON, type PackageDefinition } from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { protoDescriptors } from '../../scripts/sea.js';
import { API_LOADER_OPTIONS, API_PROTO_FILES } from '../../src/api/proto.js';
import { camelCase, lazyPackageDefinition } from '../../src/api/proto-lazy.js';

const lodashCamelCase = createRequire(import.meta.url)('lodash.camelcase') as (s: string) => string;

let json: protobuf.INamespace;
let eager: PackageDefinition;
let lazy: PackageDefinition;

type Def = Record<string, unknown>;

beforeAll(() => {
  json = protoDescriptors()[JSON.stringify([...API_PROTO_FILES])] as protobuf.INamespace;
  eager = fromJSON(json, API_LOADER_OPTIONS);
  lazy = lazyPackageDefinition(protobuf.Root.fromJSON(json), API_LOADER_OPTIONS);
});

const services = () => Object.keys(eager).filter((k) => !('format' in (eager[k] as Def)));

describe("the lazy package definition is proto-loader's, built on demand", () => {
  it('names the same services, messages and enums', () => {
    expect(Object.keys(lazy).sort()).toEqual(Object.keys(eager).sort());
    expect(services()).toContain('machine.MachineService');
  });

  it('has the same methods, paths, streaming flags, names and options', () => {
    for (const name of services()) {
      const e = eager[name] as unknown as Record<string, Def>;
      const l = lazy[name] as unknown as Record<string, Def>;
      expect(Object.keys(l)).toEqual(Object.keys(e));
      for (const [method, def] of Object.entries(e)) {
        const got = l[method]!;
        for (const field of ['path', 'requestStream', 'responseStream', 'originalName', 'options'])
          expect(got[field], `${name}.${method}.${field}`).toEqual(def[field]);
        expect((got.requestType as Def).type).toEqual((def.requestType as Def).type);
        expect((got.responseType as Def).type).toEqual((def.responseType as Def).type);
      }
    }
  });

  it('describes every message and enum the same way, with the same file descriptors', () => {
    for (const [name, def] of Object.entries(eager)) {
      const d = def as Def;
      if (!('format' in d)) continue;
      const got = lazy[name] as unknown as Def;
      expect(got.format, name).toBe(d.format);
      expect(got.type, name).toEqual(d.type);
    }
    const anyMessage = Object.keys(eager).find((k) =>
      (eager[k] as Def).format?.toString().includes('DescriptorProto'),
    )!;
    expect((lazy[anyMessage] as unknown as Def).fileDescriptorProtos).toEqual(
      (eager[anyMessage] as unknown as Def).fileDescriptorProtos,
    );
  });

  it('encodes and decodes requests byte for byte alike', () => {
    const method = 'ApplyConfiguration';
    const e = (eager['machine.MachineService'] as unknown as Record<string, Def>)[method]!;
    const l = (lazy['machine.MachineService'] as unknown as Record<string, Def>)[method]!;
    const req = {
      data: Buffer.from('version: v1alpha1\n'),
      mode: 'TRY',
      dry_run: true,
      try_mode_timeout: { seconds: '60' },
    };
    const bytes = (e.requestSerialize as (a: object) => Buffer)(req);
    expect((l.requestSerialize as (a: object) => Buffer)(req)).toEqual(bytes);
    expect((l.requestDeserialize as (b: Buffer) => object)(bytes)).toEqual(
      (e.requestDeserialize as (b: Buffer) => object)(bytes),
    );
    expect(() => (l.requestSerialize as (a: object) => Buffer)([] as unknown as object)).toThrow(/got array/);
  });

  it("names methods as lodash's camelCase does", () => {
    const names = services().flatMap((s) => Object.keys(eager[s] as object));
    for (const n of [...names, 'CPUInfo', 'EtcdMemberList', 'DiskUsage', 'Version'])
      expect(camelCase(n), n).toBe(lodashCamelCase(n));
  });
});
