// The images of the components manifest (images/components.yaml, key images): container images a layer
// ships as OCI archives, each made of a pinned Debian package's busybox, of one binary a component builds,
// or of Kubernetes' pause. Validated strictly, as the components are.
import { parseDocument } from 'yaml';
import { ComponentsError } from './errors.js';
import { DEFAULT_LAYER, parseComponents } from './manifest.js';
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
  /** one binary of a component at /usr/local/bin/<binary>, as Kubernetes' server images; tagged by its version */
  | { readonly kind: 'binary'; readonly component: string; readonly binary: string }
  /** /pause, compiled from build/pause/linux/pause.c of the component's first module (k8s.io/kubernetes) */
  | { readonly kind: 'pause'; readonly component: string; readonly tag: string };

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
  readonly config: OciImageConfig;
}

export const IMAGES_DIR = '/usr/share/keel/images';

const IMAGE_KEYS = [
  'repository',
  'layer',
  'busybox',
  'binary',
  'pause',
  'aliases',
  'entrypoint',
  'cmd',
  'env',
  'user',
  'workingDir',
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
    } else {
      const key = kinds[0]!;
      const s = i[key];
      const keys = key === 'binary' ? ['component', 'name'] : ['component', 'tag'];
      if (!isRecord(s)) return fail(`${at}.${key}: must be {${keys.join(', ')}}`);
      for (const k of Object.keys(s))
        if (!keys.includes(k)) fail(`${at}.${key}: unknown key '${k}' (${keys.join(', ')})`);
      const c = components.find((x) => x.name === s.component);
      if (!c) return fail(`${at}.${key}.component: '${String(s.component)}' is not a component`);
      if (key === 'binary') {
        if (!c.binaries.some((b) => b.name === s.name))
          return fail(`${at}.binary.name: ${c.name} builds no binary '${String(s.name)}'`);
        src = { kind: 'binary', component: c.name, binary: s.name as string };
        tag = c.version;
      } else {
        if (typeof s.tag !== 'string' || !TAG.test(s.tag)) return fail(`${at}.pause.tag: not an image tag`);
        src = { kind: 'pause', component: c.name, tag: s.tag };
        tag = s.tag;
      }
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
    if (i.workingDir !== undefined) {
      if (typeof i.workingDir !== 'string' || !i.workingDir.startsWith('/'))
        fail(`${at}.workingDir: must be an absolute path`);
      config.workingDir = i.workingDir as string;
    }
    out.push({ name, ref: `${repository}:${tag}`, aliases, layer, source: src, config });
  }
  return out;
}

/**
 * tagOfDebVersion makes an image tag of a Debian version: the epoch dropped, and `+` and `~` (which a tag
 * cannot hold) made `-`: 1:1.35.0-4+deb12u1+b1 → 1.35.0-4-deb12u1-b1.
 */
export const tagOfDebVersion = (version: string): string =>
  version.replace(/^[0-9]+:/, '').replace(/[+~]/g, '-');

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
