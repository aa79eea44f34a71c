// The images of the components manifest (images/components.yaml, key images): container images a layer
// ships as OCI archives, each made of a pinned Debian package's busybox, of binaries a component builds, or
// of Kubernetes' pause, and optionally a base of files from pinned Debian packages. Validated strictly, as
// the components are.
import { parseDocument } from 'yaml';
import { ComponentsError } from './errors.js';
import { type Component, DEFAULT_LAYER, parseComponents } from './manifest.js';
import type { OciImageConfig } from './oci-archive.js';

/** A Debian package pinned to one version and the sha256 of its .deb (checked offline on a cache hit). */
export interface PinnedDeb {
  readonly package: string;
  readonly version: string;
  readonly sha256: string;
}

/** What an image is made of. */
export type ImageSource =
  /** /bin/busybox from this package, /bin/sh and the links of every applet; tagged by the Debian version */
  | { readonly kind: 'busybox'; readonly deb: PinnedDeb }
  /** binaries of one component, each at its path in the image; tagged by the component's version */
  | { readonly kind: 'binary'; readonly component: string; readonly files: readonly ImageBinary[] }
  /** /pause, compiled from build/pause/linux/pause.c of the component's first module (k8s.io/kubernetes) */
  | { readonly kind: 'pause'; readonly component: string; readonly tag: string };

/**
 * Files an image takes from pinned Debian packages beside what it is made of (deb-base.ts), with the shared
 * libraries they need found in the same packages.
 */
export interface DebBase {
  readonly debs: readonly PinnedDeb[];
  /** absolute paths in the unpacked packages: a file, a link (kept with what it points at), a directory */
  readonly files: readonly string[];
  /** more names, as the packages' maintainer scripts make them (update-alternatives) */
  readonly links: readonly DebBaseLink[];
}

export interface DebBaseLink {
  readonly path: string;
  /** relative to the link's directory, or absolute */
  readonly target: string;
}

/** A component's binary and where an image holds it. */
export interface ImageBinary {
  readonly binary: string;
  /** absolute; by default /usr/local/bin/<binary>, where Kubernetes' server images keep theirs */
  readonly path: string;
}

export interface Image {
  /** the manifest's key: names the archive (`<name>.tar`) and the line in packages.txt */
  readonly name: string;
  /** `<repository>:<tag>` */
  readonly ref: string;
  /** more references the same image is imported under */
  readonly aliases: readonly string[];
  /** the layer it ships in */
  readonly layer: string;
  readonly source: ImageSource;
  /** files from Debian packages the image holds too (an image that has none has no key) */
  readonly base?: DebBase;
  readonly config: OciImageConfig;
}

export const IMAGES_DIR = '/usr/share/keel/images';

const IMAGE_KEYS = [
  'repository',
  'layer',
  'busybox',
  'binary',
  'pause',
  'base',
  'aliases',
  'entrypoint',
  'cmd',
  'env',
  'user',
  'workingDir',
  'ports',
];
const SOURCES = ['busybox', 'binary', 'pause'] as const;
const NAME = /^[a-z0-9][a-z0-9._-]*$/;
const REPOSITORY = /^[a-z0-9]+([._-][a-z0-9]+)*(\/[a-z0-9]+([._-][a-z0-9]+)*)+$/;
const DEB_NAME = /^[a-z0-9][a-z0-9+.-]+$/;
const DEB_VERSION = /^([0-9]+:)?[0-9][A-Za-z0-9.+~-]*$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const REFERENCE =
  /^[a-z0-9]+([._-][a-z0-9]+)*(\/[a-z0-9]+([._-][a-z0-9]+)*)+:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const USER = /^[A-Za-z0-9_.-]+(:[A-Za-z0-9_.-]+)?$/;
const PATH = /^(\/[A-Za-z0-9_.+-]+)+$/;
const LINK_TARGET = /^\/?[A-Za-z0-9_.+-]+(\/[A-Za-z0-9_.+-]+)*$/;
/** an exposed port as an image config names it: 53/udp, or 53 for tcp (quote it) */
const PORT = /^[0-9]{1,5}(\/(tcp|udp|sctp))?$/;

/** parseImages reads the images of manifest text; none is an empty list. */
export function parseImages(text: string, source = 'manifest'): Image[] {
  const fail = (msg: string): never => {
    throw new ComponentsError('manifest', `${source}: ${msg}`);
  };
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length) fail(doc.errors.map((e) => e.message).join('; '));
  const raw: unknown = doc.toJS();
  if (!isRecord(raw) || raw.images === undefined) return [];
  if (!isRecord(raw.images)) return fail('images: must be a mapping');
  const components =
    isRecord(raw.components) && Object.keys(raw.components).length ? parseComponents(text, source) : [];
  const out: Image[] = [];
  for (const [name, i] of Object.entries(raw.images)) {
    const at = `images.${name}`;
    if (!NAME.test(name)) fail(`${at}: not an image name`);
    if (!isRecord(i)) return fail(`${at}: must be a mapping`);
    for (const k of Object.keys(i))
      if (!IMAGE_KEYS.includes(k)) fail(`${at}: unknown key '${k}' (allowed: ${IMAGE_KEYS.join(', ')})`);
    const repository = i.repository;
    if (typeof repository !== 'string' || !REPOSITORY.test(repository))
      return fail(`${at}.repository: must be a repository like keel.dev/${name}`);
    const layer = i.layer ?? DEFAULT_LAYER;
    if (typeof layer !== 'string' || !NAME.test(layer)) return fail(`${at}.layer: not a layer name`);
    const kinds = SOURCES.filter((k) => i[k] !== undefined);
    if (kinds.length !== 1) return fail(`${at}: name what it is made of, one of ${SOURCES.join(', ')}`);
    let src: ImageSource;
    let tag: string;
    if (kinds[0] === 'busybox') {
      const deb = pinnedDeb(i.busybox, `${at}.busybox`, fail);
      src = { kind: 'busybox', deb };
      tag = tagOfDebVersion(deb.version);
    } else if (kinds[0] === 'binary') {
      const files = binaries(i.binary, `${at}.binary`, components, fail);
      src = { kind: 'binary', component: files.component, files: files.files };
      tag = components.find((c) => c.name === files.component)!.version;
    } else {
      const s = i.pause;
      if (!isRecord(s)) return fail(`${at}.pause: must be {component, tag}`);
      for (const k of Object.keys(s))
        if (!['component', 'tag'].includes(k)) fail(`${at}.pause: unknown key '${k}' (component, tag)`);
      const c = components.find((x) => x.name === s.component);
      if (!c) return fail(`${at}.pause.component: '${String(s.component)}' is not a component`);
      if (typeof s.tag !== 'string' || !TAG.test(s.tag)) return fail(`${at}.pause.tag: not an image tag`);
      src = { kind: 'pause', component: c.name, tag: s.tag };
      tag = s.tag;
    }
    const aliases = i.aliases === undefined ? [] : strings(i.aliases, `${at}.aliases`, fail);
    for (const a of aliases)
      if (!REFERENCE.test(a)) fail(`${at}.aliases: '${a}' is not a reference host/path:tag`);
    const config: { -readonly [K in keyof OciImageConfig]: OciImageConfig[K] } = {};
    if (i.entrypoint !== undefined) config.entrypoint = strings(i.entrypoint, `${at}.entrypoint`, fail);
    if (i.cmd !== undefined) config.cmd = strings(i.cmd, `${at}.cmd`, fail);
    if (i.user !== undefined) {
      if (typeof i.user !== 'string' || !USER.test(i.user))
        fail(`${at}.user: must be user[:group] (quote it)`);
      config.user = i.user as string;
    }
    if (i.env !== undefined) {
      config.env = strings(i.env, `${at}.env`, fail);
      for (const e of config.env)
        if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(e)) fail(`${at}.env: '${e}' is not KEY=VALUE`);
    }
    if (i.ports !== undefined) {
      config.ports = strings(i.ports, `${at}.ports`, fail);
      for (const p of config.ports) if (!PORT.test(p)) fail(`${at}.ports: '${p}' is not port[/tcp|udp|sctp]`);
    }
    if (i.workingDir !== undefined) {
      if (typeof i.workingDir !== 'string' || !i.workingDir.startsWith('/'))
        fail(`${at}.workingDir: must be an absolute path`);
      config.workingDir = i.workingDir as string;
    }
    const base = i.base === undefined ? undefined : debBase(i.base, `${at}.base`, fail);
    out.push({
      name,
      ref: `${repository}:${tag}`,
      aliases,
      layer,
      source: src,
      ...(base && { base }),
      config,
    });
  }
  return out;
}

/**
 * tagOfDebVersion makes an image tag of a Debian version: the epoch dropped, and `+` and `~` (which a tag
 * cannot hold) made `-`: 1:1.35.0-4+deb12u1+b1 → 1.35.0-4-deb12u1-b1.
 */
export const tagOfDebVersion = (version: string): string =>
  version.replace(/^[0-9]+:/, '').replace(/[+~]/g, '-');

/**
 * binaries reads an image's `binary`: {component, name, path?}, or a list of them, all of one component (the
 * tag is its version).
 */
function binaries(
  v: unknown,
  at: string,
  components: readonly Component[],
  fail: (m: string) => never,
): { component: string; files: ImageBinary[] } {
  const list = Array.isArray(v) ? v : [v];
  if (!list.length) return fail(`${at}: name at least one binary`);
  let component = '';
  const files: ImageBinary[] = [];
  for (const [n, b] of list.entries()) {
    const bat = Array.isArray(v) ? `${at}[${n}]` : at;
    if (!isRecord(b)) return fail(`${bat}: must be {component, name, path}`);
    for (const k of Object.keys(b))
      if (!['component', 'name', 'path'].includes(k))
        fail(`${bat}: unknown key '${k}' (component, name, path)`);
    const c = components.find((x) => x.name === b.component);
    if (!c) return fail(`${bat}.component: '${String(b.component)}' is not a component`);
    if (component && c.name !== component)
      fail(`${bat}.component: an image's binaries come from one component`);
    component = c.name;
    if (!c.binaries.some((x) => x.name === b.name))
      return fail(`${bat}.name: ${c.name} builds no binary '${String(b.name)}'`);
    const path = b.path ?? `/usr/local/bin/${b.name}`;
    if (typeof path !== 'string' || !PATH.test(path) || path.split('/').some((p) => p === '.' || p === '..'))
      return fail(`${bat}.path: must be an absolute file path`);
    if (files.some((f) => f.path === path)) fail(`${bat}.path: ${path} is listed twice`);
    files.push({ binary: b.name as string, path });
  }
  return { component, files };
}

/** debBase reads an image's `base`: {debs, files, links?}; images share one through a YAML anchor. */
function debBase(v: unknown, at: string, fail: (m: string) => never): DebBase {
  if (!isRecord(v)) return fail(`${at}: must be {debs, files, links}`);
  for (const k of Object.keys(v))
    if (!['debs', 'files', 'links'].includes(k)) fail(`${at}: unknown key '${k}' (debs, files, links)`);
  if (!Array.isArray(v.debs) || !v.debs.length) return fail(`${at}.debs: must list the packages`);
  const debs = v.debs.map((d, n) => pinnedDeb(d, `${at}.debs[${n}]`, fail));
  for (const [n, d] of debs.entries())
    if (debs.findIndex((x) => x.package === d.package) !== n)
      fail(`${at}.debs: ${d.package} is listed twice`);
  const files = strings(v.files, `${at}.files`, fail);
  const links: DebBaseLink[] = [];
  if (v.links !== undefined && !isRecord(v.links)) fail(`${at}.links: must map a path to its target`);
  for (const [path, target] of Object.entries(isRecord(v.links) ? v.links : {})) {
    if (typeof target !== 'string' || !LINK_TARGET.test(target))
      fail(`${at}.links.${path}: the target must be a path`);
    links.push({ path, target: target as string });
  }
  for (const p of [...files, ...links.map((l) => l.path)])
    if (!PATH.test(p) || p.split('/').some((x) => x === '.' || x === '..'))
      fail(`${at}: '${p}' is not an absolute path`);
  return { debs, files, links };
}

function pinnedDeb(v: unknown, at: string, fail: (m: string) => never): PinnedDeb {
  if (!isRecord(v)) return fail(`${at}: must be {package, version, sha256}`);
  for (const k of Object.keys(v))
    if (!['package', 'version', 'sha256'].includes(k))
      fail(`${at}: unknown key '${k}' (package, version, sha256)`);
  const { package: pkg, version, sha256 } = v;
  if (typeof pkg !== 'string' || !DEB_NAME.test(pkg)) return fail(`${at}.package: not a Debian package name`);
  if (typeof version !== 'string' || !DEB_VERSION.test(version))
    return fail(`${at}.version: not a Debian version (quote it: YAML reads 1.0 as a number)`);
  if (typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256))
    return fail(`${at}.sha256: must be the .deb's sha256 (apt-cache show ${pkg}=${version})`);
  return { package: pkg, version, sha256 };
}

function strings(v: unknown, at: string, fail: (m: string) => never): string[] {
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string' || !s))
    return fail(`${at}: must be a list of strings`);
  return v as string[];
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
