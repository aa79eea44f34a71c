// The components manifest (images/components.yaml): which Go modules, at which version, build which
// binaries with which flags. Validated strictly: a typo fails the build instead of dropping a binary.
import { parseDocument } from 'yaml';
import { ComponentsError } from './errors.js';

export interface Binary {
  readonly name: string;
  /** the main package's import path; for a throw-away main, the package whose Main it calls */
  readonly package: string;
  /** true: a throw-away main calling `package`.Main(os.Args) */
  readonly main: boolean;
  readonly tags: readonly string[];
  /** false: built and cached but left out of the layer (a tool for the host, or a binary only an image carries) */
  readonly ship: boolean;
}

export interface Component {
  readonly name: string;
  readonly version: string;
  readonly modules: readonly string[];
  /** the layer it ships in: `components` (the default) or another one (`kubernetes`) */
  readonly layer: string;
  /**
   * the version at which the first module's replaces into its own tree (Kubernetes' staging modules) are
   * required instead: a wrapper module cannot see that tree
   */
  readonly replaceLocal?: string;
  /** absolute directory of the layer the binaries go in */
  readonly dest: string;
  readonly cgo: boolean;
  /** Debian packages whose static libraries a cgo build links in */
  readonly debs: readonly string[];
  readonly buildmode?: string;
  /** with {version}, {major}, {minor} and {sum} still in it */
  readonly ldflags: string;
  readonly binaries: readonly Binary[];
}

const COMPONENT_KEYS = [
  'version',
  'modules',
  'layer',
  'replaceLocal',
  'dest',
  'tags',
  'cgo',
  'debs',
  'buildmode',
  'ldflags',
  'binaries',
];
const NAME = /^[a-z0-9][a-z0-9._-]*$/;
const VERSION = /^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;
const MODULE = /^[a-z0-9.-]+\.[a-z]+(\/[A-Za-z0-9._~-]+)*$/;
const TAG = /^[A-Za-z0-9_.]+$/;
const PLACEHOLDERS = ['version', 'major', 'minor', 'sum'];
export const DEFAULT_LAYER = 'components';
const DEST = /^(\/[a-z0-9._-]+)+$/;

/** parseComponents validates manifest text; errors name the file and the offending key. */
export function parseComponents(text: string, source = 'manifest'): Component[] {
  const fail = (msg: string): never => {
    throw new ComponentsError('manifest', `${source}: ${msg}`);
  };
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length) fail(doc.errors.map((e) => e.message).join('; '));
  const raw: unknown = doc.toJS();
  // images: are read by image-manifest.ts
  if (
    !isRecord(raw) ||
    !isRecord(raw.components) ||
    Object.keys(raw).some((k) => k !== 'components' && k !== 'images')
  )
    return fail('top level must be a mapping of components (and images)');

  const out: Component[] = [];
  const dests = new Map<string, string>();
  for (const [name, c] of Object.entries(raw.components)) {
    const at = `components.${name}`;
    if (!NAME.test(name)) fail(`${at}: not a component name`);
    if (!isRecord(c)) return fail(`${at}: must be a mapping`);
    for (const k of Object.keys(c))
      if (!COMPONENT_KEYS.includes(k))
        fail(`${at}: unknown key '${k}' (allowed: ${COMPONENT_KEYS.join(', ')})`);
    const version = c.version;
    if (typeof version !== 'string' || !VERSION.test(version))
      return fail(`${at}.version: must be a module version like v1.2.3`);
    const modules = strings(c.modules, `${at}.modules`, MODULE, fail);
    if (!modules.length) fail(`${at}.modules: name at least one Go module`);
    const layer = c.layer ?? DEFAULT_LAYER;
    if (typeof layer !== 'string' || !NAME.test(layer)) return fail(`${at}.layer: not a layer name`);
    const replaceLocal = c.replaceLocal;
    if (replaceLocal !== undefined && (typeof replaceLocal !== 'string' || !VERSION.test(replaceLocal)))
      return fail(`${at}.replaceLocal: must be a module version like v0.1.2`);
    const dest = c.dest;
    if (typeof dest !== 'string' || !DEST.test(dest))
      return fail(`${at}.dest: must be an absolute directory`);
    const tags = strings(c.tags ?? [], `${at}.tags`, TAG, fail);
    if (c.cgo !== undefined && typeof c.cgo !== 'boolean') fail(`${at}.cgo: must be true or false`);
    const cgo = c.cgo === true;
    const debs = strings(c.debs ?? [], `${at}.debs`, /^[a-z0-9][a-z0-9+.-]+$/, fail);
    if (debs.length && !cgo) fail(`${at}.debs: only a cgo build links Debian libraries`);
    const buildmode = c.buildmode;
    if (buildmode !== undefined && (typeof buildmode !== 'string' || !/^[a-z-]+$/.test(buildmode)))
      return fail(`${at}.buildmode: must be a go build -buildmode value`);
    const ldflags = c.ldflags ?? '';
    if (typeof ldflags !== 'string') return fail(`${at}.ldflags: must be a string`);
    for (const m of ldflags.matchAll(/\{([^}]*)\}/g))
      if (!PLACEHOLDERS.includes(m[1]!)) fail(`${at}.ldflags: unknown placeholder {${m[1]}}`);
    if (/(^|\s)-(s|w|buildid)(\s|=|$)/.test(ldflags)) fail(`${at}.ldflags: -s -w -buildid= are always set`);

    if (!isRecord(c.binaries) || !Object.keys(c.binaries).length)
      return fail(`${at}.binaries: must be a non-empty mapping of binary name to package`);
    const binaries: Binary[] = [];
    for (const [bin, spec] of Object.entries(c.binaries)) {
      const bat = `${at}.binaries.${bin}`;
      if (!NAME.test(bin)) fail(`${bat}: not a file name`);
      const s: Record<string, unknown> =
        typeof spec === 'string' ? { package: spec } : isRecord(spec) ? spec : {};
      for (const k of Object.keys(s))
        if (!['package', 'main', 'tags', 'ship'].includes(k))
          fail(`${bat}: unknown key '${k}' (package, main, tags, ship)`);
      if (s.ship !== undefined && typeof s.ship !== 'boolean') fail(`${bat}.ship: must be true or false`);
      const ship = s.ship !== false;
      // a path of a layer holds one binary; the layers are mounted apart, so each has its own paths
      const path = `${layer}:${dest}/${bin}`;
      const other = dests.get(path);
      if (ship && other) fail(`${bat}: ${dest}/${bin} is also built by ${other}`);
      if (ship) dests.set(path, name);
      const pkg = s.main ?? s.package;
      if (typeof pkg !== 'string' || (s.main !== undefined && s.package !== undefined))
        return fail(`${bat}: must be a package path, {package: path} or {main: path}`);
      binaries.push({
        name: bin,
        package: importPath(pkg, modules[0]!, bat, fail),
        main: s.main !== undefined,
        tags: s.tags === undefined ? tags : strings(s.tags, `${bat}.tags`, TAG, fail),
        ship,
      });
    }
    out.push({
      name,
      version,
      modules,
      layer,
      ...(replaceLocal ? { replaceLocal } : {}),
      dest,
      cgo,
      debs,
      buildmode,
      ldflags,
      binaries,
    });
  }
  if (!out.length) fail('components: name at least one component');
  return out;
}

/** ldflagsOf fills a component's ldflags in: {version} the tag, {major} and {minor} its first two numbers. */
export function ldflagsOf(c: Pick<Component, 'version' | 'ldflags'>, sum: string): string {
  const [major, minor] = c.version.replace(/^v/, '').split('.');
  return c.ldflags
    .replaceAll('{version}', c.version)
    .replaceAll('{major}', major!)
    .replaceAll('{minor}', minor!)
    .replaceAll('{sum}', sum)
    .replace(/\s+/g, ' ')
    .trim();
}

/** importPath resolves a package relative to the first module; a first element with a dot is absolute. */
function importPath(pkg: string, module: string, at: string, fail: (m: string) => never): string {
  if (pkg === '.') return module;
  if (!/^[A-Za-z0-9._~/-]+$/.test(pkg) || pkg.split('/').some((s) => s === '' || s === '..' || s === '.'))
    fail(`${at}: '${pkg}' is not a package path`);
  return pkg.split('/')[0]!.includes('.') ? pkg : `${module}/${pkg}`;
}

function strings(v: unknown, at: string, re: RegExp, fail: (m: string) => never): string[] {
  if (!Array.isArray(v)) return fail(`${at}: must be a list`);
  const out: string[] = [];
  for (const [i, s] of v.entries()) {
    if (typeof s !== 'string' || !re.test(s)) fail(`${at}[${i}]: '${String(s)}' is not valid here`);
    if (out.includes(s)) fail(`${at}[${i}]: '${s}' is listed twice`);
    out.push(s);
  }
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
