// Builds one component of images/components.yaml from its published Go modules and caches it outside the
// work tree, under <cache>/components/<name>/<version>-<key>, the key a hash of the manifest entry, the Go
// version (for cgo builds also the C compiler's and the linked Debian libraries' versions) and this
// build's code. A cache hit costs nothing; one build of a component at a time (flock), and the
// output directory appears whole (renamed into place) or not at all.
//
// Each component gets a throw-away wrapper module that requires its modules at the pinned version: etcd's
// modules carry replace directives into their own repository, which `go install mod@version` refuses, and
// its main package is in a module the proxy does not serve. The host's module and build caches are used
// as they are.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, chmod, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readElfDeps } from '../rootfs/elf.js';
import { sectionNames } from './elf.js';
import { ComponentsError } from './errors.js';
import { lock } from './lock.js';
import { type Component, ldflagsOf } from './manifest.js';
import { wrapperGoMod } from './wrapper-module.js';

/** component.json in a cached directory: what was built, from what, with which Go */
export interface BuildInfo {
  readonly name: string;
  readonly version: string;
  /** `go env GOVERSION` of the build */
  readonly go: string;
  readonly modules: readonly { readonly path: string; readonly sum: string }[];
  /** Debian packages (name=version) a cgo build linked statically, C library included */
  readonly links: readonly string[];
  /** the layer it ships in */
  readonly layer: string;
  readonly dest: string;
  /** the binaries the layer holds, at dest */
  readonly binaries: readonly string[];
  /** built and cached beside them, but not in the layer (host tools, binaries only images carry) */
  readonly extra: readonly string[];
}

export interface Built {
  readonly dir: string;
  readonly info: BuildInfo;
  readonly hit: boolean;
}

export interface BuildOptions {
  /** default: $KEEL_CACHE, else $XDG_CACHE_HOME/keel, else ~/.cache/keel */
  readonly cache?: string;
  readonly log?: (line: string) => void;
}

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
/** the code whose change changes what is built: this file, the manifest's reading and the wrapper's go.mod */
const KEYED_SOURCES = [here('./build.ts'), here('./manifest.ts'), here('./wrapper-module.ts')];
const HOST_PACKAGES = here('../host-packages.sh');
/** always linked by a cgo build: the C library (static for a static link) and the compiler */
export const CGO_DEBS = ['gcc', 'libc6-dev'];

export function cacheDir(): string {
  return process.env.KEEL_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'keel');
}

/** buildComponent returns the cached directory of a component, building it first on a cache miss. */
export async function buildComponent(c: Component, o: BuildOptions = {}): Promise<Built> {
  const log = o.log ?? (() => {});
  const go = await findGo();
  const env = goEnv();
  const goVersion = (await run(go, ['env', 'GOVERSION'], { env })).trim();
  let links: string[] = [];
  if (c.cgo) {
    // only what is missing is installed; the versions then key the cache
    await run(HOST_PACKAGES, ['components']);
    links = await debVersions([...CGO_DEBS, ...c.debs]);
  }
  const sources = await Promise.all(KEYED_SOURCES.map((f) => readFile(f)));
  const h = createHash('sha256').update(JSON.stringify({ component: c, go: goVersion, links }));
  for (const s of sources) h.update(s);
  const key = h.digest('hex').slice(0, 16);

  const base = join(o.cache ?? cacheDir(), 'components', c.name);
  const out = join(base, `${c.version}-${key}`);
  const cached = async (): Promise<Built | undefined> => {
    const info = await readFile(join(out, 'component.json'), 'utf8').catch(() => undefined);
    return info === undefined ? undefined : { dir: out, info: JSON.parse(info) as BuildInfo, hit: true };
  };
  const hit = await cached();
  if (hit) return hit;

  await mkdir(base, { recursive: true });
  // one build at a time: two cold runs would otherwise race on the same output directory
  const unlock = await lock(join(base, '.lock'));
  try {
    const late = await cached();
    if (late) return late;
    const work = await mkdtemp(join(base, '.build-'));
    try {
      const t0 = performance.now();
      log(`${c.name} ${c.version}: building ${c.binaries.map((b) => b.name).join(' ')} with ${goVersion}`);
      const info = await build(c, { go, env, goVersion, links, work, partial: `${out}.partial` });
      await rm(out, { recursive: true, force: true });
      await rename(`${out}.partial`, out);
      log(`${c.name} ${c.version}: built in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      return { dir: out, info, hit: false };
    } finally {
      await rm(work, { recursive: true, force: true });
      await rm(`${out}.partial`, { recursive: true, force: true });
    }
  } finally {
    await unlock();
  }
}

interface BuildContext {
  readonly go: string;
  readonly env: NodeJS.ProcessEnv;
  readonly goVersion: string;
  readonly links: readonly string[];
  readonly work: string;
  readonly partial: string;
}

async function build(c: Component, x: BuildContext): Promise<BuildInfo> {
  const { go, work } = x;
  const env = { ...x.env, CGO_ENABLED: c.cgo ? '1' : '0' };
  const modules: { path: string; sum: string }[] = [];
  let first = '';
  for (const m of c.modules) {
    const dl = await downloadModule(go, env, m, c.version);
    modules.push({ path: m, sum: dl.Sum });
    if (!first) first = await readFile(dl.GoMod, 'utf8');
  }

  const wrapper = `keel.build/components/${c.name}`;
  await writeFile(
    join(work, 'go.mod'),
    wrapperGoMod({
      module: wrapper,
      go: x.goVersion.replace(/^go/, ''),
      first,
      replaceLocal: c.replaceLocal,
    }),
  );
  const targets = new Map<string, string>(); // binary -> import path to build
  for (const b of c.binaries) {
    if (!b.main) {
      targets.set(b.name, b.package);
      continue;
    }
    await mkdir(join(work, 'cmd', b.name), { recursive: true });
    await writeFile(join(work, 'cmd', b.name, 'main.go'), wrapperMain(b.package));
    targets.set(b.name, `${wrapper}/cmd/${b.name}`);
  }
  await run(go, ['get', ...c.modules.map((m) => `${m}@${c.version}`)], { env, cwd: work });

  const ldflags = ldflagsOf(c, modules[0]!.sum);
  const flags = [
    '-trimpath',
    '-buildvcs=false',
    ...(c.buildmode ? [`-buildmode=${c.buildmode}`] : []),
    '-ldflags',
    `-s -w -buildid=${ldflags ? ` ${ldflags}` : ''}`,
  ];
  await mkdir(x.partial);
  // binaries with the same tags go in one `go build`, which links them in parallel; a batch never holds
  // two packages go would name alike
  for (const batch of batches(c, targets)) {
    const dir = await mkdtemp(join(work, 'bin-'));
    const tags = batch[0]!.tags;
    // niced: the build shares the host's cores with whoever else is working on it
    await run(
      'nice',
      [
        '-n',
        '19',
        go,
        'build',
        ...flags,
        ...(tags.length ? ['-tags', tags.join(',')] : []),
        '-o',
        `${dir}/`,
        ...batch.map((b) => targets.get(b.name)!),
      ],
      { env, cwd: work },
    );
    for (const b of batch) {
      const file = join(x.partial, b.name);
      await rename(join(dir, execName(targets.get(b.name)!)), file);
      await chmod(file, 0o755);
      await check(file);
    }
  }

  const info: BuildInfo = {
    name: c.name,
    version: c.version,
    go: x.goVersion,
    modules,
    links: x.links,
    layer: c.layer,
    dest: c.dest,
    binaries: c.binaries.filter((b) => b.ship).map((b) => b.name),
    extra: c.binaries.filter((b) => !b.ship).map((b) => b.name),
  };
  await writeFile(join(x.partial, 'component.json'), `${JSON.stringify(info, null, 2)}\n`);
  return info;
}

export interface Downloaded {
  readonly Sum: string;
  /** the module's go.mod and its unpacked tree in the module cache */
  readonly GoMod: string;
  readonly Dir: string;
}

/** downloadModule fetches a module into the module cache (checked against the checksum database). */
export async function downloadModule(
  go: string,
  env: NodeJS.ProcessEnv,
  module: string,
  version: string,
): Promise<Downloaded> {
  // the proxy's answer for a version it will not serve is final: say which one
  const dl = JSON.parse(
    await run(go, ['mod', 'download', '-json', `${module}@${version}`], { env, ok: [1] }),
  ) as Partial<Downloaded> & { Error?: string };
  if (dl.Error || !dl.Sum || !dl.GoMod || !dl.Dir)
    throw new ComponentsError('build', `${module}@${version}: ${dl.Error ?? 'no sum'}`);
  return dl as Downloaded;
}

/** check refuses a binary that kept its symbol table or needs a dynamic loader: the layer has none */
async function check(file: string): Promise<void> {
  if ((await sectionNames(file)).includes('.symtab'))
    throw new ComponentsError('build', `${file}: not stripped (.symtab present)`);
  const deps = await readElfDeps(file);
  if (deps?.interpreter || deps?.needed.length)
    throw new ComponentsError(
      'build',
      `${file}: dynamically linked (${[deps.interpreter, ...deps.needed].filter(Boolean).join(', ')})`,
    );
}

function batches(c: Component, targets: ReadonlyMap<string, string>): Component['binaries'][number][][] {
  const out: { tags: string; names: Set<string>; bins: Component['binaries'][number][] }[] = [];
  for (const b of c.binaries) {
    const tags = b.tags.join(',');
    const name = execName(targets.get(b.name)!);
    let batch = out.find((x) => x.tags === tags && !x.names.has(name));
    if (!batch) {
      batch = { tags, names: new Set(), bins: [] };
      out.push(batch);
    }
    batch.names.add(name);
    batch.bins.push(b);
  }
  return out.map((x) => x.bins);
}

/** execName is the file name `go build -o dir/` gives a main package: its last element, or the one
 * before a major-version suffix */
export function execName(importPath: string): string {
  const parts = importPath.split('/');
  const last = parts.at(-1)!;
  return /^v\d+$/.test(last) && parts.length > 1 ? parts.at(-2)! : last;
}

const wrapperMain = (
  pkg: string,
) => `// Code generated by scripts/components: the main of ${pkg}, whose own lives in a module the
// module proxy does not serve.
package main

import (
	"os"

	m "${pkg}"
)

func main() { m.Main(os.Args) }
`;

/**
 * goEnv fixes what would otherwise come from the host's environment and change the output: the module
 * mode of the wrapper (it is written to), the local toolchain (the one the key names), the target.
 */
export function goEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GOFLAGS: '-mod=mod',
    GOTOOLCHAIN: 'local',
    GOWORK: 'off',
    GOOS: 'linux',
    GOARCH: 'amd64',
  };
}

/** findGo: $GO, else go on PATH, else the toolchain's default install place */
export async function findGo(): Promise<string> {
  const candidates = [
    ...(process.env.GO ? [process.env.GO] : []),
    ...(process.env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .map((d) => join(d, 'go')),
    '/usr/local/go/bin/go',
  ];
  for (const c of candidates)
    if (
      await access(c).then(
        () => true,
        () => false,
      )
    )
      return c;
  throw new ComponentsError('tool', 'the go command (1.26 or later) is required to build the components');
}

export async function debVersions(pkgs: readonly string[]): Promise<string[]> {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's format, not a template
  const out = await run('dpkg-query', ['-W', '-f', '${Package}=${Version}\\n', ...pkgs]);
  return out.trim().split('\n').sort();
}

interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** exit codes that still give stdout back (go mod download -json reports its errors in the JSON) */
  ok?: readonly number[];
}

export function run(cmd: string, args: readonly string[], o: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      { cwd: o.cwd, env: o.env, maxBuffer: 64 << 20, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (!err || o.ok?.includes(Number(err.code))) return resolve(stdout);
        const what = `${cmd} ${args.join(' ')}`;
        reject(new ComponentsError('tool', `${what}: ${stderr.trim() || err.message}`, { cause: err }));
      },
    );
  });
}
