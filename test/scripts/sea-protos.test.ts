// The single executable's proto loader (scripts/sea.ts protoPlugin), bundled as in the executable and run
// in a plain node: prebuilt proto sets load without proto-loader, a proto directory on disk still parses.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importMetaPlugin, protoPlugin } from '../../scripts/sea.js';
import { type BundledEntry, bundleEntry, REPO as repo } from './bundle-entry.js';

let bundled: BundledEntry;

// the entry prints, per loader path: whether proto-loader had parsed .proto files (it points protobufjs'
// file reads at the embedded files first) and whether protobufjs' descriptor extension was loaded, both
// before a descriptor is read; then the Version reply's bytes and a descriptor's name
const ENTRY = `
const fs = require('node:fs'); // the module object itself, as proto-fs inherits from it
import protobuf from 'protobufjs';
import { loadApiProto } from ${JSON.stringify(join(repo, 'src/api/proto.ts'))};
const probe = (proto) => {
  const version = proto.services.get('machine.MachineService').Version;
  const bytes = version.responseSerialize({ messages: [{ version: { tag: 'v1.2.3' } }] }).toString('hex');
  const parsed = Object.getPrototypeOf(protobuf.util.fs ?? {}) === fs;
  const extension = typeof protobuf.Type.prototype.toDescriptor === 'function';
  return { parsed, extension, bytes, type: version.requestType.type.name };
};
const prebuilt = probe(loadApiProto());
const onDisk = probe(loadApiProto({ protoDir: process.argv[2] }));
process.stdout.write(JSON.stringify({ prebuilt, onDisk }));
`;

beforeAll(async () => {
  bundled = await bundleEntry(ENTRY, [importMetaPlugin, protoPlugin]);
}, 120_000);

afterAll(() => bundled?.remove());

describe('the bundled proto loader', () => {
  it('serves the prebuilt API set and a proto directory on disk alike, descriptors included', () => {
    const out = JSON.parse(
      execFileSync(process.execPath, [bundled.file, join(repo, 'src/api/proto')], { encoding: 'utf8' }),
    ) as Record<string, { parsed: boolean; extension: boolean; bytes: string; type: string }>;
    expect(out.prebuilt).toMatchObject({ parsed: false, extension: false, type: 'Empty' });
    expect(out.prebuilt!.bytes).not.toBe('');
    // by now the extension is loaded (a descriptor was read) and proto-loader parsed the files on disk
    expect(out.onDisk).toEqual({ ...out.prebuilt, parsed: true, extension: true });
  });
});
