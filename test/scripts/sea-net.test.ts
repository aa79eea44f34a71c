// The node:net grpc-js gets in the single executable (scripts/sea/grpc-net.cjs, wired by grpcNetPlugin):
// node:net's answers for every input, and in a bundle made with the plugin grpc-js binds with it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as net from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcNetPlugin } from '../../scripts/sea.js';
import { type BundledEntry, bundleEntry, REPO } from './bundle-entry.js';

const shim = createRequire(import.meta.url)(join(REPO, 'scripts/sea/grpc-net.cjs')) as typeof net;

const INPUTS: unknown[] = [
  '0.0.0.0',
  '127.0.0.1',
  '10.5.0.2',
  '256.1.1.1',
  '::',
  '::1',
  'fe80::1%eth0',
  '2001:db8::8a2e:370:7334',
  '::ffff:192.0.2.1',
  '1:2:3:4:5:6:7:8',
  '1:2:3:4:5:6:7:8:9',
  ':',
  'localhost',
  'node-1.example.com',
  '',
  'not an address',
  undefined,
  null,
  42,
  { toString: () => '::1' },
];

let bundled: BundledEntry;

// binds a grpc-js server on IPv4 and IPv6 loopback and prints the ports it got
const ENTRY = `
import { Server, ServerCredentials } from '@grpc/grpc-js';
(async () => {
const server = new Server();
const bind = (address) => new Promise((ok, fail) =>
  server.bindAsync(address, ServerCredentials.createInsecure(), (e, port) => (e ? fail(e) : ok(port))));
const v4 = await bind('127.0.0.1:0');
const v6 = await bind('[::1]:0').catch((e) => 'no IPv6: ' + e.message);
server.forceShutdown();
process.stdout.write(JSON.stringify({ v4, v6 }));
})();
`;

beforeAll(async () => {
  bundled = await bundleEntry(ENTRY, [grpcNetPlugin]);
}, 120_000);

afterAll(() => bundled?.remove());

describe("grpc-js' node:net in the single executable", () => {
  it('answers isIPv6 and isIP as node:net does, for every input', () => {
    for (const input of INPUTS) {
      expect(shim.isIPv6(input as string), String(input)).toBe(net.isIPv6(input as string));
      expect(shim.isIP(input as string), String(input)).toBe(net.isIP(input as string));
    }
    // and is node:net otherwise
    expect(shim.createServer).toBe(net.createServer);
    expect(shim.isIPv4).toBe(net.isIPv4);
  });

  it('is the net grpc-js binds with in a bundle made with the plugin', () => {
    expect(readFileSync(bundled.file, 'utf8')).toContain('scripts/sea/grpc-net.cjs');
    const out = JSON.parse(execFileSync(process.execPath, [bundled.file], { encoding: 'utf8' })) as {
      v4: number;
      v6: number | string;
    };
    expect(out.v4).toBeGreaterThan(0);
    if (typeof out.v6 === 'number') expect(out.v6).toBeGreaterThan(0);
  });
});
