// Builds machined as a Node single executable application: `node --import tsx scripts/sea.ts OUTDIR`.
// esbuild bundles src/machined/entry.ts into one CommonJS file, a training run makes V8's code cache of
// it, Node turns a small loader (the SEA main, scripts/sea/loader.cjs) with both as assets into a blob,
// and postject injects the blob into a stripped copy of this node whose ICU data is trimmed to root and
// English (scripts/sea/icu-trim.ts). Writes OUTDIR/machined (0755) and OUTDIR/koffi.node; the
// intermediates stay in OUTDIR/sea-build/.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import protobuf from 'protobufjs';
import { API_LOADER_OPTIONS, API_PROTO_FILES } from '../src/api/proto.js';
import {
  definitionsFor,
  FIRST_CALLS,
  prebuiltCodecSources,
  renderPrebuiltCodecs,
} from '../src/api/proto-codecs.js';
import { type ProtoIndex, protoIndex } from '../src/api/proto-index.js';
import { LazyRoot } from '../src/api/proto-lazy.js';
import {
  LOADER_OPTIONS as COSI_LOADER_OPTIONS,
  PROTO_FILES as COSI_PROTO_FILES,
} from '../src/cosi/api/proto.js';
import { KOFFI_NODE_PATH } from './lib/image-layout.js';
import { asciiPlugin, assertAscii } from './sea/ascii.js';
import { grpcServerFirstPlugin } from './sea/grpc-server-first.js';
import { type IcuTrimReport, KEPT_LOCALES, trimNodeIcu } from './sea/icu-trim.js';
import { pluralTable } from './sea/plurals.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = join(REPO, 'src/machined/entry.ts');
const KOFFI_NODE = join(REPO, 'node_modules/@koromix/koffi-linux-x64/linux_x64/koffi.node');
/** the postject fuse Node 20 looks for to know a blob was injected */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
/**
 * Inside the bundle a module's import.meta.url is `file:///keel-sea/<path in the repo>`: stable across
 * checkouts (reproducible, no build machine paths), and the key under which the protos are embedded.
 */
const SEA_ROOT = '/keel-sea/';
/** .proto files loaded at runtime through import.meta.url; embedded because the image has no sources */
const PROTO_DIRS = ['src/api/proto', 'src/cosi/api/proto'];
/**
 * The blob carries the bundle and V8's code cache of it, trained: scripts/sea/train.cjs loads machined's
 * modules and serves one Version call in maintenance mode on loopback before it writes the cache, so the
 * cache holds the bytecode of every function that runs before the API answers, not only the top level
 * that Node's own SEA code cache covers. The cache is made under a fixed V8 random seed: with the default
 * (entropy) the serialised strings' layout differs from build to build and the blob is not reproducible.
 * V8 leaves the seed out of the flag hash it checks a cache against, and a node still draws its own seed.
 */
const CODE_CACHE_SEED_FLAG = '--random-seed=20201';
/** the SEA main (scripts/sea/loader.cjs) and the training run that makes the cache it loads */
const SEA_LOADER = join(REPO, 'scripts/sea/loader.cjs');
const SEA_TRAIN = join(REPO, 'scripts/sea/train.cjs');
const TRAINING_TIMEOUT_MS = 120_000;

export interface BuildInfo {
  tag: string;
  sha: string;
  built: string;
}

export interface SeaResult {
  executable: string;
  koffi: string;
  bundle: string;
  blob: string;
  sizes: { bundle: number; blob: number; node: number; stripped: number; executable: number };
  build: BuildInfo;
  /** ICU's data before and after the trim (scripts/sea/icu-trim.ts); absent for a node without it */
  icu?: IcuTrimReport;
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO, encoding: 'utf8' }).trim();

/** buildInfo: the package version, the short commit (dirty when tracked files changed) and its date. */
export function buildInfo(): BuildInfo {
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
  let sha = 'unknown';
  let built = '';
  try {
    sha = git('rev-parse', '--short', 'HEAD');
    // untracked files do not count: they are not in the bundle unless imported, and then tsc sees them
    if (git('status', '--porcelain', '--untracked-files=no') !== '') sha += '-dirty';
    // the commit time, not the wall clock, keeps two builds of one tree identical
    built = git('log', '-1', '--format=%cI');
  } catch {
    // not a git checkout: the fallbacks stand
  }
  return { tag: `v${pkg.version}`, sha, built };
}

const seaUrl = (file: string) => pathToFileURL(SEA_ROOT + relative(REPO, file)).href;

/** importMetaPlugin gives each module its stable import.meta.url/dirname/filename; CJS has no import.meta. */
export const importMetaPlugin: Plugin = {
  name: 'import-meta',
  setup(b) {
    b.onLoad({ filter: /\.(ts|js|mjs)$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta')) return undefined;
      const url = seaUrl(args.path);
      const filename = fileURLToPath(url);
      const contents = text
        .replaceAll('import.meta.url', JSON.stringify(url))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(filename)))
        .replaceAll('import.meta.filename', JSON.stringify(filename));
      if (/import\.meta\b/.test(contents))
        throw new Error(`${relative(REPO, args.path)}: import.meta used in a way the SEA build does not map`);
      return { contents, loader: args.path.endsWith('.ts') ? 'ts' : 'js', resolveDir: dirname(args.path) };
    });
  },
};

/**
 * koffiPlugin: a SEA's require loads only built-ins, so koffi's static loader (a require of the
 * platform package) is replaced by a process.dlopen of koffi.node from disk. koffi's own index.js stays:
 * it still checks the addon's version and wraps it.
 */
const koffiPlugin: Plugin = {
  name: 'koffi-native',
  setup(b) {
    b.onResolve({ filter: /^\.\/src\/static\.js$/ }, (args) =>
      /node_modules\/koffi\/src\/koffi\/index\.js$/.test(args.importer)
        ? { path: 'koffi-native', namespace: 'keel-sea' }
        : undefined,
    );
    b.onLoad({ filter: /^koffi-native$/, namespace: 'keel-sea' }, () => ({
      loader: 'js',
      contents: `
export function loadStatic() {
  const file = process.env.KEEL_KOFFI_NODE || ${JSON.stringify(KOFFI_NODE_PATH)};
  const m = { exports: {} };
  try {
    process.dlopen(m, file);
  } catch (e) {
    throw new Error('cannot load koffi from ' + file + ' (set KEEL_KOFFI_NODE to its path): ' + e.message, { cause: e });
  }
  return m.exports;
}`,
    }));
  },
};

function protoFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.proto')) files[SEA_ROOT + relative(REPO, p)] = readFileSync(p, 'utf8');
    }
  };
  for (const d of PROTO_DIRS) walk(join(REPO, d));
  return files;
}

/** the proto sets machined loads (the API's and the COSI runtime's), with where their imports are found */
const PROTO_SETS = [
  {
    files: API_PROTO_FILES,
    options: API_LOADER_OPTIONS,
    dirs: ['src/api/proto', 'src/api/proto/vendor', 'src/cosi/api/proto'],
  },
  { files: COSI_PROTO_FILES, options: COSI_LOADER_OPTIONS, dirs: ['src/cosi/api/proto'] },
];

/** protoRoots parses each proto set once, the way proto-loader's loadSync would, keyed by its file list. */
function protoRoots(): Map<string, protobuf.Root> {
  const out = new Map<string, protobuf.Root>();
  for (const set of PROTO_SETS) {
    const root = new protobuf.Root();
    const dirs = set.dirs.map((d) => join(REPO, d));
    root.resolvePath = (_origin, target) =>
      dirs.map((d) => join(d, target)).find((p) => existsSync(p)) ?? target;
    root.loadSync([...set.files], { keepCase: set.options.keepCase ?? false });
    root.resolveAll();
    out.set(JSON.stringify([...set.files]), root);
  }
  return out;
}

/** protoDescriptors is protobufjs' JSON form of each proto set machined loads, keyed by its file list. */
export function protoDescriptors(): Record<string, unknown> {
  return Object.fromEntries([...protoRoots()].map(([key, root]) => [key, root.toJSON()]));
}

/**
 * prebuiltProtoSets is each proto set machined loads in its prebuilt form (src/api/proto-index.ts): on a
 * node the loader starts from it, with no .proto text to parse (parsing was the largest single cost
 * between machined's start and a listening API under TCG) and no type built before it is used.
 */
export function prebuiltProtoSets(): Record<string, ProtoIndex> {
  return Object.fromEntries([...protoRoots()].map(([key, root]) => [key, protoIndex(root)]));
}

/**
 * prebuiltCodecsSource is the JavaScript of the codecs built into the executable for each proto set (by
 * its key): those of the types the first calls (FIRST_CALLS) need, generated from the set's prebuilt form
 * exactly as a node's lazily built root holds them.
 */
function prebuiltCodecsSource(sets: Record<string, ProtoIndex>): string {
  const entries = Object.entries(sets).map(([key, index]) => {
    const lazy = new LazyRoot(index);
    lazy.ensure(...definitionsFor(index, FIRST_CALLS));
    return `[${JSON.stringify(key)}, ${renderPrebuiltCodecs(prebuiltCodecSources(lazy.root))}]`;
  });
  return `new Map([${entries.join(',\n')}])`;
}

/**
 * protoPlugin gives the bundle a proto-loader whose loadSync starts from the prebuilt form of the proto sets
 * it knows, with definitions and types built on first use (src/api/proto-lazy.ts). For anything else it
 * loads the real proto-loader with the .proto files embedded: only the two places that touch the disk
 * (proto-loader's include-path check and protobufjs' file read) see them first, for paths under SEA_ROOT.
 * A proto directory set through the environment is read from disk as before.
 */
export const protoPlugin: Plugin = {
  name: 'embedded-protos',
  setup(b) {
    b.onResolve({ filter: /^@grpc\/proto-loader$/ }, (args) =>
      args.namespace === 'file' && !args.importer.includes('/node_modules/')
        ? { path: 'proto-loader', namespace: 'keel-sea' }
        : undefined,
    );
    b.onResolve({ filter: /^fs$/ }, (args) =>
      /@grpc\/proto-loader\/build\/src\/util\.js$/.test(args.importer)
        ? { path: 'proto-fs', namespace: 'keel-sea' }
        : undefined,
    );
    b.onLoad({ filter: /^proto-fs$/, namespace: 'keel-sea' }, () => ({
      loader: 'js',
      resolveDir: REPO,
      contents: `
const fs = require('node:fs');
const FILES = new Map(Object.entries(${JSON.stringify(protoFiles())}));
// node:fs with the embedded protos in front, for the two calls that load protos; CommonJS, since
// proto-loader requires it in place of fs
module.exports = Object.create(fs, {
  accessSync: { value: (p, mode) => (FILES.has(p) ? undefined : fs.accessSync(p, mode)) },
  readFileSync: { value: (p, ...rest) => (FILES.has(p) ? Buffer.from(FILES.get(p)) : fs.readFileSync(p, ...rest)) },
});`,
    }));
    b.onLoad({ filter: /^proto-loader$/, namespace: 'keel-sea' }, () => {
      const sets = prebuiltProtoSets();
      return {
        loader: 'js',
        resolveDir: REPO,
        contents: `
import { lazyPackageDefinition } from ${JSON.stringify(join(REPO, 'src/api/proto-lazy.ts'))};
const PREBUILT = new Map(Object.entries(${JSON.stringify(sets)}));
// the codecs of the first calls' types, as real functions: nothing to generate, and in the code cache
const CODECS = ${prebuiltCodecsSource(sets)};
const embedded = (dirs) => (dirs ?? []).every((d) => d.startsWith(${JSON.stringify(SEA_ROOT)}));
// proto-loader itself (with protobufjs' descriptor extension and lodash) is loaded only for proto sets
// that were not prebuilt, and the extension only when a descriptor is read: machined needs neither to boot
const descriptorExtension = () => require('protobufjs/ext/descriptor/index.js');
function parseSync(files, options) {
  // protobufjs reads files through util.fs, looked up at each load
  require('protobufjs').util.fs = require('proto-fs');
  return require('@grpc/proto-loader').loadSync(files, options);
}
export function loadSync(files, options = {}) {
  const index = PREBUILT.get(JSON.stringify([files].flat()));
  return index && embedded(options.includeDirs)
    ? lazyPackageDefinition(index, options, descriptorExtension, CODECS.get(JSON.stringify([files].flat())))
    : parseSync(files, options);
}`,
      };
    });
    b.onResolve({ filter: /^proto-fs$/ }, () => ({ path: 'proto-fs', namespace: 'keel-sea' }));
  },
};

/**
 * pluralPlugin answers the resource definitions' pluralize questions from a table made at build time
 * (scripts/sea/plurals.ts) and loads pluralize only for a name not in it: the same answers, without
 * compiling its rules at every boot.
 */
export const pluralPlugin: Plugin = {
  name: 'plural-table',
  setup(b) {
    b.onResolve({ filter: /^pluralize$/ }, (args) =>
      args.importer === join(REPO, 'src/cosi/resource/definition.ts')
        ? { path: 'pluralize-table', namespace: 'keel-sea' }
        : undefined,
    );
    b.onLoad({ filter: /^pluralize-table$/, namespace: 'keel-sea' }, () => ({
      loader: 'js',
      resolveDir: REPO,
      contents: `
const TABLE = new Map(Object.entries(${JSON.stringify(pluralTable())}));
let real;
const pluralize = () => (real ??= require('pluralize'));
export default {
  isPlural: (word) => TABLE.get(word)?.isPlural ?? pluralize().isPlural(word),
  singular: (word) => TABLE.get(word)?.singular ?? pluralize().singular(word),
};`,
    }));
  },
};

/** the node:net grpc-js gets in the bundle (scripts/sea/grpc-net.cjs) */
const GRPC_NET = join(REPO, 'scripts/sea/grpc-net.cjs');

/**
 * grpcNetPlugin hands grpc-js a node:net whose isIPv6 and isIP skip Node's IPv6 regular expression for a
 * string without a colon (scripts/sea/grpc-net.cjs): the same answers, without compiling that expression
 * when the API binds its IPv4 address.
 */
export const grpcNetPlugin: Plugin = {
  name: 'grpc-net',
  setup(b) {
    b.onResolve({ filter: /^(node:)?net$/ }, (args) =>
      /\/node_modules\/@grpc\/grpc-js\//.test(args.importer) ? { path: GRPC_NET } : undefined,
    );
  },
};

/** long.js, the 64-bit integers protobufjs decodes into (its UMD build, the one a bundle resolves) */
const LONG_UMD = /\/node_modules\/long\/umd\/index\.js$/;

/**
 * longPlugin gives long.js a `WebAssembly` of its own that is undefined. long compiles a small WebAssembly
 * module at load for 64-bit multiply and divide, inside a try that falls back to its JavaScript versions
 * when there is no WebAssembly; under TCG that compile cost ~50 ms of every boot, for arithmetic the API
 * hardly does (a Long's toString). The answers are the same either way.
 */
export const longPlugin: Plugin = {
  name: 'long-no-wasm',
  setup(b) {
    b.onLoad({ filter: LONG_UMD }, (args) => ({
      contents: `var WebAssembly = undefined;\n${readFileSync(args.path, 'utf8')}`,
      loader: 'js',
    }));
  },
};

/** bundle writes the CommonJS bundle of the entry with the build info baked in. */
export async function bundle(outFile: string, info: BuildInfo): Promise<void> {
  const result = await build({
    entryPoints: [ENTRY],
    outfile: outFile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    // whitespace and syntax only: identifiers stay, so stack traces from a node still read. No keepNames:
    // it redefines `name` on each of ~2,500 functions and classes as it is defined, which cost about
    // 0.8 s of a boot to the first API answer under TCG (interleaved A/B boots). Stack traces keep the
    // source's names; only the few that collide across modules carry a numeric suffix.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'eof',
    sourcemap: false,
    absWorkingDir: REPO,
    define: { KEEL_BUILD_INFO: JSON.stringify(info) },
    plugins: [
      importMetaPlugin,
      koffiPlugin,
      protoPlugin,
      pluralPlugin,
      grpcNetPlugin,
      grpcServerFirstPlugin,
      longPlugin,
      // pluralize's regular expressions; cel-js's µs (an object key, a regular expression and a comment:
      // an escaped identifier means the same identifier)
      asciiPlugin([
        /[\\/]node_modules[\\/]pluralize[\\/]pluralize\.js$/,
        /[\\/]node_modules[\\/]@marcbachmann[\\/]cel-js[\\/]lib[\\/]functions\.js$/,
      ]),
    ],
    logLevel: 'warning',
  });
  if (result.warnings.length)
    throw new Error(`esbuild warnings: ${result.warnings.map((w) => w.text).join('; ')}`);
  assertAscii(readFileSync(outFile, 'utf8'), outFile);
}

/** the namespaces the network controllers' training needs: its own (empty) network, its own names */
export const TRAINING_UNSHARE = ['unshare', '--user', '--map-root-user', '--net', '--uts'] as const;

/**
 * trainCodeCache runs the training in a node of its own with a clean environment: V8 accepts a cache
 * only under the flags it was made with, so nothing of this build's own flags (tsx) may leak into it.
 * It touches only a loopback port. The run of the network controllers in namespaces of its own
 * (TRAINING_UNSHARE with KEEL_TRAIN_NETWORK: their first runs are the node's path to its address, ≈ 20 %
 * fewer instructions there with their bytecode cached) is off: which of their paths ran in its
 * three-second window depended on timing, and about one build in three made another cache, so the image
 * was no longer byte-reproducible. It comes back once it ends on a deterministic point.
 */
function trainCodeCache(wrapped: string, cacheFile: string): void {
  try {
    execFileSync(process.execPath, [CODE_CACHE_SEED_FLAG, SEA_TRAIN, wrapped, cacheFile], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        KEEL_KOFFI_NODE: KOFFI_NODE,
      },
      stdio: 'pipe',
      encoding: 'utf8',
      // a few seconds natively; a training that waits on something that never comes must not hang the build
      timeout: TRAINING_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    });
  } catch (e) {
    const { stdout, stderr, signal } = e as { stdout?: string; stderr?: string; signal?: string };
    const why = signal === 'SIGKILL' ? ` (killed after ${TRAINING_TIMEOUT_MS / 1000} s)` : '';
    throw new Error(`code-cache training failed${why}:\n${stdout ?? ''}${stderr ?? ''}`, { cause: e });
  }
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** buildSea builds OUTDIR/machined and OUTDIR/koffi.node. */
export async function buildSea(outDir: string): Promise<SeaResult> {
  const out = resolve(outDir);
  const work = join(out, 'sea-build');
  mkdirSync(work, { recursive: true });
  const info = buildInfo();
  const bundleFile = join(work, 'machined.cjs');
  await bundle(bundleFile, info);

  // the bundle as a CommonJS module's body, so loader.cjs can compile it as a script and hand it require
  const wrapped = join(work, 'machined.js');
  writeFileSync(
    wrapped,
    `(function (exports, require, module, __filename, __dirname) {\n${readFileSync(bundleFile, 'utf8')}\n})`,
  );
  trainCodeCache(wrapped, join(work, 'machined.cache'));
  copyFileSync(SEA_LOADER, join(work, 'loader.cjs'));

  const blob = join(work, 'machined.blob');
  const config = join(work, 'sea-config.json');
  writeFileSync(
    config,
    `${JSON.stringify(
      // relative: the blob records the main's path as given, and an absolute one would differ per OUTDIR
      {
        main: 'loader.cjs',
        output: 'machined.blob',
        disableExperimentalSEAWarning: true,
        assets: { 'machined.js': 'machined.js', 'machined.cache': 'machined.cache' },
      },
      null,
      2,
    )}\n`,
  );
  execFileSync(process.execPath, ['--experimental-sea-config', config], { cwd: work, stdio: 'pipe' });

  // strip first: postject adds a note segment that strip would not keep as is
  const tmp = join(out, 'machined.tmp');
  copyFileSync(process.execPath, tmp);
  chmodSync(tmp, 0o755);
  execFileSync('strip', ['--strip-all', tmp]);
  const stripped = statSync(tmp).size;
  const icu = await trimNodeIcu(tmp);
  // postject's CLI in a child: its ELF library warns about every note section of a stripped binary
  const postject = join(REPO, 'node_modules/postject/dist/cli.js');
  try {
    execFileSync(process.execPath, [postject, tmp, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE], {
      stdio: 'pipe',
      encoding: 'utf8',
    });
  } catch (e) {
    const { stdout, stderr } = e as { stdout?: string; stderr?: string };
    throw new Error(`postject failed:\n${stdout ?? ''}${stderr ?? ''}`, { cause: e });
  }
  const executable = join(out, 'machined');
  renameSync(tmp, executable);
  chmodSync(executable, 0o755);

  const koffi = join(out, 'koffi.node');
  copyFileSync(KOFFI_NODE, koffi);
  chmodSync(koffi, 0o644);
  return {
    executable,
    koffi,
    bundle: bundleFile,
    blob,
    sizes: {
      bundle: statSync(bundleFile).size,
      blob: statSync(blob).size,
      node: statSync(process.execPath).size,
      stripped,
      executable: statSync(executable).size,
    },
    build: info,
    ...(icu && { icu }),
  };
}

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2];
  if (!outDir) {
    process.stderr.write('usage: node --import tsx scripts/sea.ts OUTDIR\n');
    process.exit(2);
  }
  const r = await buildSea(outDir);
  const rel = (p: string) => relative(process.cwd(), p) || p;
  process.stdout.write(
    [
      `build: ${r.build.tag} ${r.build.sha} ${r.build.built}`,
      `bundle      ${rel(r.bundle)}  ${mb(r.sizes.bundle)}`,
      `blob        ${rel(r.blob)}  ${mb(r.sizes.blob)}`,
      `node        ${mb(r.sizes.node)} unstripped, ${mb(r.sizes.stripped)} stripped`,
      `executable  ${rel(r.executable)}  ${mb(r.sizes.executable)}  sha256 ${sha256(r.executable)}`,
      `koffi       ${rel(r.koffi)}  ${mb(statSync(r.koffi).size)}`,
      r.icu
        ? `ICU data    ${mb(r.icu.before)} -> ${mb(r.icu.after)} (${r.icu.items.before} -> ${r.icu.items.after} items; locales root, ${[...KEPT_LOCALES].join(', ')})`
        : 'ICU data    none',
      '',
    ].join('\n'),
  );
}
