import { createRequire } from 'node:module';
import { fromJSON, type PackageDefinition } from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import descriptor from 'protobufjs/ext/descriptor/index.js';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { prebuiltProtoSets, protoDescriptors } from '../../scripts/sea.js';

import { API_LOADER_OPTIONS, API_PROTO_FILES } from '../../src/api/proto.js';
import {
  definitionsFor,
  FIRST_CALLS,
  type PrebuiltCodecs,
  prebuiltCodecSources,
  renderPrebuiltCodecs,
} from '../../src/api/proto-codecs.js';
import type { ProtoIndex } from '../../src/api/proto-index.js';
import { camelCase, LazyRoot, lazyPackageDefinition } from '../../src/api/proto-lazy.js';

const lodashCamelCase = createRequire(import.meta.url)('lodash.camelcase') as (s: string) => string;

let json: protobuf.INamespace;
let index: ProtoIndex;
let eager: PackageDefinition;
let lazy: PackageDefinition;
let extensionLoads = 0;
/** the descriptor extension, as the bundle's loader hands it over: counted */
const ext = () => {
  extensionLoads++;
  return descriptor;
};

type Def = Record<string, unknown>;

/** a value for each scalar protobuf type (64-bit ones as proto-loader's longs: String) */
const SCALAR_SAMPLES: Record<string, unknown> = {
  string: 'x',
  bytes: Buffer.from([1, 2]),
  bool: true,
  int32: -3,
  uint32: 3,
  sint32: -3,
  fixed32: 3,
  sfixed32: -3,
  int64: '-5',
  uint64: '5',
  sint64: '-5',
  fixed64: '5',
  sfixed64: '-5',
  float: 1.5,
  double: 2.5,
};

beforeAll(() => {
  const key = JSON.stringify([...API_PROTO_FILES]);
  json = protoDescriptors()[key] as protobuf.INamespace;
  index = prebuiltProtoSets()[key]!;
  eager = fromJSON(json, API_LOADER_OPTIONS);
  lazy = lazyPackageDefinition(index, API_LOADER_OPTIONS, ext);
});

const services = () => Object.keys(eager).filter((k) => !('format' in (eager[k] as Def)));

describe("the lazy package definition is proto-loader's, built on demand", () => {
  it('asks for the descriptor extension only when a descriptor is read', () => {
    const before = extensionLoads;
    const fresh = lazyPackageDefinition(index, API_LOADER_OPTIONS, ext);
    const version = (fresh['machine.MachineService'] as unknown as Record<string, Def>).Version!;
    (version.responseSerialize as (a: object) => Buffer)({ messages: [] });
    expect(extensionLoads).toBe(before);
    expect((version.requestType as Def).type).toBeDefined();
    expect(extensionLoads).toBeGreaterThan(before);
  });

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

  it('encodes every message byte for byte alike, packed repeated scalars included', () => {
    // a value for each scalar field (repeated ones get two): the root is resolved type by type on
    // first use, and the editions features that choose packed encoding must already hold then
    const sample = (t: protobuf.Type) => {
      const out: Record<string, unknown> = {};
      for (const f of t.fieldsArray) {
        const v = SCALAR_SAMPLES[f.type];
        if (v !== undefined && !f.map && f.partOf === null) out[f.name] = f.repeated ? [v, v] : v;
      }
      return out;
    };
    const reference = protobuf.Root.fromJSON(json);
    // a fresh definition, in which each message's types are built when it first encodes
    const fresh = lazyPackageDefinition(index, API_LOADER_OPTIONS, ext);
    let packed = 0;
    for (const [name, def] of Object.entries(eager)) {
      if ((def as Def).format !== 'Protocol Buffer 3 DescriptorProto') continue;
      const t = reference.lookupType(name);
      const obj = sample(t);
      packed += t.fieldsArray.filter((f) => f.repeated && f.packed && f.name in obj).length;
      const want = ((def as Def).serialize as (a: object) => Buffer)(obj);
      expect(((fresh[name] as unknown as Def).serialize as (a: object) => Buffer)(obj), name).toEqual(want);
    }
    expect(packed).toBeGreaterThan(0);
  });

  it("names methods as lodash's camelCase does", () => {
    const names = services().flatMap((s) => Object.keys(eager[s] as object));
    for (const n of [...names, 'CPUInfo', 'EtcdMemberList', 'DiskUsage', 'Version'])
      expect(camelCase(n), n).toBe(lodashCamelCase(n));
  });
});

describe('the prebuilt proto set, built a definition at a time', () => {
  const defs = () => index.entries.flatMap((e) => ('def' in e ? [e] : []));

  it('holds every top-level definition of the set, in its order', () => {
    const names: string[] = [];
    const walk = (obj: protobuf.ReflectionObject) => {
      if (
        obj instanceof protobuf.Namespace &&
        !(obj instanceof protobuf.Type) &&
        !(obj instanceof protobuf.Service)
      )
        for (const c of obj.nestedArray) walk(c);
      else names.push(obj.fullName.slice(1));
    };
    walk(protobuf.Root.fromJSON(json));
    expect(defs().map((d) => d.def)).toEqual(names);
    expect(defs().filter((d) => d.kind === 'extension').length).toBeGreaterThan(0);
  });

  it('brings along everything a definition needs: each one resolves alone', () => {
    // a service needs nothing to be listed; each method names what its request and response need
    for (const d of defs().filter((x) => x.kind !== 'service')) {
      const lazyRoot = new LazyRoot(index);
      lazyRoot.ensure(d.def);
      // resolving looks up every field's type and throws on one that is not there
      const obj = lazyRoot.root.lookup(d.def)!;
      expect(
        () => (obj instanceof protobuf.Namespace ? obj.resolveAll() : obj.resolve()),
        d.def,
      ).not.toThrow();
    }
    for (const [method, needs] of Object.entries(index.methods)) {
      const lazyRoot = new LazyRoot(index);
      lazyRoot.ensure(method.slice(0, method.lastIndexOf('.')), ...needs);
      const m = lazyRoot.root.lookup(method) as protobuf.Method;
      expect(() => m.resolve(), method).not.toThrow();
    }
  });

  it('builds only what a call needs', () => {
    const fresh = lazyPackageDefinition(index, API_LOADER_OPTIONS, ext);
    const machine = fresh['machine.MachineService'] as unknown as Record<string, Def>;
    const bytes = (machine.Version!.responseSerialize as (a: object) => Buffer)({
      messages: [{ version: { tag: 'v1.2.3' } }],
    });
    const eagerVersion = (eager['machine.MachineService'] as unknown as Record<string, Def>).Version!;
    expect(bytes).toEqual(
      (eagerVersion.responseSerialize as (a: object) => Buffer)({
        messages: [{ version: { tag: 'v1.2.3' } }],
      }),
    );
    // the types a Version reply needs, and none of, say, etcd's
    const lazyRoot = new LazyRoot(index);
    lazyRoot.ensure(...index.methods['machine.MachineService.Version']!);
    const built = Object.keys((lazyRoot.root.lookup('machine') as protobuf.Namespace).nested ?? {});
    expect(built).toContain('VersionResponse');
    expect(built).not.toContain('EtcdMemberListResponse');
    expect(built.length).toBeLessThan(defs().filter((d) => d.def.startsWith('machine.')).length / 4);
  });

  it('lists a service and its methods without building anything', () => {
    const fresh = lazyPackageDefinition(index, API_LOADER_OPTIONS, ext);
    const addJSON = vi.spyOn(protobuf.Namespace.prototype, 'addJSON');
    try {
      for (const name of services()) {
        const svc = fresh[name] as unknown as Record<string, Def>;
        for (const m of Object.values(svc)) expect(m.path).toMatch(/^\/[\w.]+\/\w+$/);
      }
      expect(addJSON).not.toHaveBeenCalled();
      // the first call builds what it needs
      const machine = fresh['machine.MachineService'] as unknown as Record<string, Def>;
      (machine.Version!.responseSerialize as (a: object) => Buffer)({ messages: [] });
      expect(addJSON).toHaveBeenCalled();
    } finally {
      addJSON.mockRestore();
    }
  });

  it('names an unknown definition', () => {
    expect(() => new LazyRoot(index).ensure('machine.NoSuchThing')).toThrow(
      /no definition 'machine.NoSuchThing'/,
    );
  });
});

describe('the codecs built into the executable', () => {
  /** the codecs as the build renders them into the bundle, evaluated */
  const built = (): PrebuiltCodecs => {
    const root = new LazyRoot(index);
    root.ensure(...definitionsFor(index, FIRST_CALLS));
    return new Function(
      `return ${renderPrebuiltCodecs(prebuiltCodecSources(root.root))}`,
    )() as PrebuiltCodecs;
  };
  const machine = (def: PackageDefinition, method: string) =>
    (def['machine.MachineService'] as unknown as Record<string, Def>)[method]!;
  const generators = () => [
    vi.spyOn(protobuf, 'encoder'),
    vi.spyOn(protobuf, 'decoder'),
    vi.spyOn(protobuf.converter, 'fromObject'),
    vi.spyOn(protobuf.converter, 'toObject'),
  ];

  it("cover the first calls' types, nested and imported ones included", () => {
    const codecs = built();
    for (const t of [
      'machine.VersionResponse',
      'machine.Version',
      'machine.VersionInfo',
      'common.Metadata',
      'machine.ApplyConfigurationRequest',
      'google.protobuf.Duration',
    ])
      expect(Object.keys(codecs[t] ?? {}).sort(), t).toEqual(['decode', 'encode', 'fromObject', 'toObject']);
    expect(codecs['machine.HostnameResponse']).toBeUndefined();
  });

  it('answer Version and take ApplyConfiguration byte for byte as generated codecs do, generating none', () => {
    const fresh = lazyPackageDefinition(index, API_LOADER_OPTIONS, ext, built());
    const reply = {
      messages: [
        {
          metadata: { hostname: 'node-1' },
          version: { tag: 'v0.1.0', sha: 'abc1234', built: '2026-12-01', os: 'linux', arch: 'amd64' },
          platform: { name: 'metal', mode: 'metal' },
          features: { rbac: true },
        },
      ],
    };
    const apply = {
      data: Buffer.from('version: v1alpha1\n'),
      mode: 'TRY',
      try_mode_timeout: { seconds: '60' },
    };
    // what generated codecs make of them, before the generators are watched
    const e = machine(eager, 'Version');
    const ea = machine(eager, 'ApplyConfiguration');
    const bytes = (e.responseSerialize as (a: object) => Buffer)(reply);
    const decoded = (e.responseDeserialize as (b: Buffer) => object)(bytes);
    const req = (ea.requestSerialize as (a: object) => Buffer)(apply);
    const decodedReq = (ea.requestDeserialize as (b: Buffer) => object)(req);
    const spies = generators();
    try {
      const v = machine(fresh, 'Version');
      expect((v.responseSerialize as (a: object) => Buffer)(reply)).toEqual(bytes);
      expect((v.responseDeserialize as (b: Buffer) => object)(bytes)).toEqual(decoded);
      expect((v.requestDeserialize as (b: Buffer) => object)(Buffer.alloc(0))).toEqual({});
      const a = machine(fresh, 'ApplyConfiguration');
      expect((a.requestSerialize as (a: object) => Buffer)(apply)).toEqual(req);
      expect((a.requestDeserialize as (b: Buffer) => object)(req)).toEqual(decodedReq);
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
      // a method they do not cover still generates its own
      (machine(fresh, 'Hostname').responseSerialize as (a: object) => Buffer)({
        messages: [{ hostname: 'x' }],
      });
      expect(spies.some((spy) => spy.mock.calls.length > 0)).toBe(true);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
