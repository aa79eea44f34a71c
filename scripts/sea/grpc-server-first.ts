// @grpc/grpc-js as machined's bundle sees it: its server side evaluated when imported, its client side
// (channels, subchannels, transports, load balancers, the HTTP proxy, retries: about 40 modules) only
// when first used. The package's index loads both, and a node only serves before its API answers; the
// forwarder, the one client in machined, starts in normal mode. Two of the server's own modules reach the
// client side at load for things a server never does (channelz's admin service and client, ORCA's
// out-of-band client), so those requires are made on first use too. The exports and their values are the
// package's (test/scripts/sea-grpc.test.ts).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import type { Plugin } from 'esbuild';

const require = createRequire(import.meta.url);

/** the package's compiled sources */
const GRPC_SRC = join(require.resolve('@grpc/grpc-js/package.json'), '..', 'build', 'src');

/** requires made on first use instead of at load, by module: the statements exactly as grpc-js has them */
export const LAZY_REQUIRES: Readonly<Record<string, readonly string[]>> = {
  'orca.js': [
    'const make_client_1 = require("./make-client");',
    'const channel_credentials_1 = require("./channel-credentials");',
  ],
  'channelz.js': ['const admin_1 = require("./admin");', 'const make_client_1 = require("./make-client");'],
};

/** a module's exports, loaded on the first property read (every use of these is a property read) */
const LAZY_HELPER =
  'function __keelOnFirstUse(load) { let m; return new Proxy({}, { get: (_, k) => (m ??= load())[k] }); }\n';

/** deferRequires rewrites `const x = require("y");` to the same binding loaded on first use. */
export function deferRequires(source: string, statements: readonly string[], file: string): string {
  let out = source;
  for (const st of statements) {
    const m = /^const (\w+) = (require\("[^"]+"\));$/.exec(st);
    if (!m) throw new Error(`grpc-server-first: not a require statement: ${st}`);
    if (!out.includes(st))
      throw new Error(`grpc-server-first: ${file} no longer has \`${st}\` (a grpc-js upgrade?)`);
    out = out.replace(st, `const ${m[1]} = __keelOnFirstUse(() => ${m[2]});`);
  }
  return LAZY_HELPER + out;
}

const at = (module: string) => JSON.stringify(join(GRPC_SRC, `${module}.js`));
const from = (module: string, name: string) => `require(${at(module)}).${name}`;

/** what the server side takes at load: export name → the expression of its value */
const EAGER: Readonly<Record<string, string>> = {
  Server: from('server', 'Server'),
  ServerCredentials: from('server-credentials', 'ServerCredentials'),
  Metadata: from('metadata', 'Metadata'),
  status: from('constants', 'Status'),
  experimental: 'experimental',
};
const EAGER_EXPERIMENTAL: Readonly<Record<string, string>> = {
  createCertificateProviderServerCredentials: from(
    'server-credentials',
    'createCertificateProviderServerCredentials',
  ),
};

/** properties of `names`: the eager ones' values, getters reading the others from `lazy` */
const properties = (names: readonly string[], eager: Readonly<Record<string, string>>, lazy: string) =>
  names
    .map((n) => {
      const key = JSON.stringify(n);
      const value = eager[n];
      return value
        ? `  ${key}: { enumerable: true, value: ${value} },`
        : `  ${key}: { enumerable: true, get: () => ${lazy}[${key}] },`;
    })
    .join('\n');

/** entrySource is the module `@grpc/grpc-js` resolves to, given the names the package exports. */
export function entrySource(names: readonly string[], experimentalNames: readonly string[]): string {
  return `'use strict';
let index;
const all = () => (index ??= require(${at('index')}));
// a server binds through the resolvers (ipv4:, ipv6:, dns:, unix:), which the index would register
require(${at('resolver-dns')}).setup();
require(${at('resolver-uds')}).setup();
require(${at('resolver-ip')}).setup();
const experimental = Object.defineProperties({}, {
${properties(experimentalNames, EAGER_EXPERIMENTAL, 'all().experimental')}
});
module.exports = Object.defineProperties({}, {
  __esModule: { value: true },
${properties(names, EAGER, 'all()')}
});
`;
}

/** grpcServerFirstPlugin resolves machined's `@grpc/grpc-js` to entrySource and defers LAZY_REQUIRES. */
export const grpcServerFirstPlugin: Plugin = {
  name: 'grpc-server-first',
  setup(b) {
    b.onResolve({ filter: /^@grpc\/grpc-js$/ }, (args) =>
      /[\\/]node_modules[\\/]/.test(args.importer) ? undefined : { path: 'grpc-js', namespace: 'keel-grpc' },
    );
    b.onLoad({ filter: /^grpc-js$/, namespace: 'keel-grpc' }, () => {
      const real = require('@grpc/grpc-js') as Record<string, unknown> & { experimental: object };
      return {
        loader: 'js',
        resolveDir: GRPC_SRC,
        contents: entrySource(Object.keys(real), Object.keys(real.experimental)),
      };
    });
    const lazyFiles = new RegExp(
      `[\\\\/]@grpc[\\\\/]grpc-js[\\\\/]build[\\\\/]src[\\\\/](${Object.keys(LAZY_REQUIRES)
        .map((f) => f.replace('.', '\\.'))
        .join('|')})$`,
    );
    b.onLoad({ filter: lazyFiles }, async (args) => ({
      loader: 'js',
      contents: deferRequires(
        await readFile(args.path, 'utf8'),
        LAZY_REQUIRES[basename(args.path)] ?? [],
        args.path,
      ),
    }));
  },
};
