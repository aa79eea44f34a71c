// The images of the components manifest (images/components.yaml, key images): container images the layer
// ships as OCI archives, each made from a pinned Debian package. Validated strictly, as the components are.
import { parseDocument } from 'yaml';
import { ComponentsError } from './errors.js';
import type { OciImageConfig } from './oci-archive.js';

/** A Debian package pinned to one version and the sha256 of its .deb (checked offline on a cache hit). */
export interface PinnedDeb {
  readonly package: string;
  readonly version: string;
  readonly sha256: string;
}

export interface Image {
  /** the manifest's key: names the archive (`<name>.tar`) and the line in packages.txt */
  readonly name: string;
  /** `<repository>:<tag>`, the tag made from the Debian version */
  readonly ref: string;
  /** the image is busybox: /bin/busybox from this package, /bin/sh and the links of every applet */
  readonly busybox: PinnedDeb;
  readonly config: OciImageConfig;
}

export const IMAGES_DIR = '/usr/share/keel/images';

const IMAGE_KEYS = ['repository', 'busybox', 'cmd', 'env', 'workingDir'];
const NAME = /^[a-z0-9][a-z0-9._-]*$/;
const REPOSITORY = /^[a-z0-9]+([._-][a-z0-9]+)*(\/[a-z0-9]+([._-][a-z0-9]+)*)+$/;
const DEB_NAME = /^[a-z0-9][a-z0-9+.-]+$/;
const DEB_VERSION = /^([0-9]+:)?[0-9][A-Za-z0-9.+~-]*$/;

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
    const busybox = pinnedDeb(i.busybox, `${at}.busybox`, fail);
    const config: { -readonly [K in keyof OciImageConfig]: OciImageConfig[K] } = {};
    if (i.cmd !== undefined) config.cmd = strings(i.cmd, `${at}.cmd`, fail);
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
    out.push({ name, ref: `${repository}:${tagOfDebVersion(busybox.version)}`, busybox, config });
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
