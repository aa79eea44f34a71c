// grpc-js in the single executable (grpcServerFirstPlugin): a server binds and answers without the package's
// client side evaluated; the client side comes on first use; every export is the package's own value.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deferRequires, grpcServerFirstPlugin, LAZY_REQUIRES } from '../../scripts/sea/grpc-server-first.js';
import { type BundledEntry, bundleEntry } from './bundle-entry.js';

// the index registers the load balancers when it is evaluated, and nothing else does: a probe of whether
// the client side was loaded
const ENTRY = `
import * as grpc from '@grpc/grpc-js';
import { isLoadBalancerNameRegistered } from '@grpc/grpc-js/build/src/load-balancer';

const echo = {
  path: '/test.Echo/Say',
  requestStream: false,
  responseStream: false,
  requestSerialize: (b) => b,
  requestDeserialize: (b) => b,
  responseSerialize: (b) => b,
  responseDeserialize: (b) => b,
};
const server = new grpc.Server();
server.addService({ Say: echo }, { Say: (call, cb) => cb(null, Buffer.concat([Buffer.from('echo '), call.request])) });
server.bindAsync(process.argv[2], grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) throw err;
  const loadedWhenBound = isLoadBalancerNameRegistered('pick_first');
  const Client = grpc.makeGenericClientConstructor({ Say: echo }, 'Echo');
  const client = new Client('127.0.0.1:' + port, grpc.credentials.createInsecure());
  client.Say(Buffer.from('hi'), (e, reply) => {
    if (e) throw e;
    // the package's own index, read only now
    const index = require('@grpc/grpc-js/build/src/index');
    const same = (a, b) => Object.keys(b).filter((k) => k !== 'experimental' && a[k] !== b[k]);
    process.stdout.write(JSON.stringify({
      loadedWhenBound,
      loadedAfterClient: isLoadBalancerNameRegistered('pick_first'),
      reply: reply.toString(),
      keys: Object.keys(grpc).sort().join() === Object.keys(index).sort().join(),
      differing: same(grpc, index),
      experimentalKeys: Object.keys(grpc.experimental).sort().join() === Object.keys(index.experimental).sort().join(),
      experimentalDiffering: same(grpc.experimental, index.experimental),
    }));
    client.close();
    server.forceShutdown();
  });
});
`;

let plain: BundledEntry;
let patched: BundledEntry;

beforeAll(async () => {
  [plain, patched] = await Promise.all([bundleEntry(ENTRY, []), bundleEntry(ENTRY, [grpcServerFirstPlugin])]);
}, 120_000);

afterAll(() => {
  plain?.remove();
  patched?.remove();
});

const run = (b: BundledEntry, target: string) =>
  JSON.parse(execFileSync(process.execPath, [b.file, target], { encoding: 'utf8', timeout: 30_000 }));

describe('grpc-js in the single executable', () => {
  it('binds and answers without its client side; a client then loads it (the plain bundle loads it at once)', () => {
    for (const target of ['ipv4:127.0.0.1:0', '127.0.0.1:0']) {
      const p = run(patched, target);
      expect(p).toMatchObject({ loadedWhenBound: false, loadedAfterClient: true, reply: 'echo hi' });
      expect(run(plain, target)).toMatchObject({ loadedWhenBound: true, reply: 'echo hi' });
    }
  });

  it('exports what the package exports, with the same values', () => {
    const p = run(patched, 'ipv4:127.0.0.1:0');
    expect(p).toMatchObject({ keys: true, differing: [], experimentalKeys: true, experimentalDiffering: [] });
  });
});

describe('deferRequires', () => {
  it('turns each listed require into one made on first use', () => {
    const src = 'const a_1 = require("./a");\nconst b_1 = require("./b");\nexports.f = () => a_1.x;\n';
    const out = deferRequires(src, ['const a_1 = require("./a");'], 'm.js');
    expect(out).toContain('const a_1 = __keelOnFirstUse(() => require("./a"));');
    expect(out).toContain('const b_1 = require("./b");');
    const loaded: string[] = [];
    const mod = { exports: {} as { f: () => unknown } };
    new Function('require', 'exports', out)((p: string) => {
      loaded.push(p);
      return { x: 42 };
    }, mod.exports);
    expect(loaded).toEqual(['./b']);
    expect(mod.exports.f()).toBe(42);
    expect(loaded).toEqual(['./b', './a']);
  });

  it('fails the build, naming the file and statement, when grpc-js no longer has one', () => {
    expect(() => deferRequires('const x = 1;\n', LAZY_REQUIRES['orca.js'] ?? [], 'orca.js')).toThrow(
      'orca.js no longer has `const make_client_1 = require("./make-client");`',
    );
  });
});
