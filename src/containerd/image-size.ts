// imageSize: an image's size as containerd's Image.Size reports it (and so upstream's image list): the
// target's own size plus every descriptor below it — for an index only the manifest that best matches
// the platform, for a manifest its config and layers. Blobs are read through the function given.
import { type DescriptorRecord, descriptorOf, type PlatformRecord } from './client.js';
import { ContainerdError } from './errors.js';

const MANIFESTS = new Set([
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
]);
const INDEXES = new Set([
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
]);

export type BlobReader = (digest: string) => Promise<Buffer>;

export async function imageSize(
  target: DescriptorRecord,
  read: BlobReader,
  platform: PlatformRecord,
): Promise<number> {
  if (target.size < 0) throw new Error(`invalid size ${target.size} in ${target.digest}`);
  let size = target.size;
  for (const child of await childrenOf(target, read, platform))
    size += await imageSize(child, read, platform);
  return size;
}

async function childrenOf(
  d: DescriptorRecord,
  read: BlobReader,
  platform: PlatformRecord,
): Promise<DescriptorRecord[]> {
  if (MANIFESTS.has(d.mediaType)) {
    const m = JSON.parse((await read(d.digest)).toString('utf8')) as {
      config?: Record<string, unknown>;
      layers?: Record<string, unknown>[];
    };
    return [...(m.config ? [m.config] : []), ...(m.layers ?? [])].map(descriptorOf);
  }
  if (!INDEXES.has(d.mediaType)) return [];
  const idx = JSON.parse((await read(d.digest)).toString('utf8')) as {
    manifests?: Record<string, unknown>[];
  };
  const rank = platformRanker(platform);
  // as containerd: keep what matches (or names no platform), best match first, no platform last; one
  const matching = (idx.manifests ?? [])
    .map(descriptorOf)
    .filter((m) => !m.platform || rank(m.platform) >= 0)
    .map((m, i) => ({ m, r: m.platform ? rank(m.platform) : Number.MAX_SAFE_INTEGER, i }))
    .sort((a, b) => a.r - b.r || a.i - b.i);
  if (matching.length === 0)
    throw new ContainerdError(5, `no match for platform in manifest ${d.digest}: not found`);
  return [matching[0]!.m];
}

/** platformOfArch is the platform an image runs on here, from Node's process.arch. */
export function platformOfArch(arch: string): PlatformRecord {
  if (arch === 'x64') return { os: 'linux', architecture: 'amd64' };
  if (arch === 'arm64') return { os: 'linux', architecture: 'arm64', variant: 'v8' };
  if (arch === 'ia32') return { os: 'linux', architecture: '386' };
  return { os: 'linux', architecture: arch };
}

/**
 * platformRanker orders platforms as containerd's platforms.Only does: the host's own first, then what
 * it also runs (386 on amd64, older arm variants on arm64); -1 for what it cannot run.
 */
export function platformRanker(host: PlatformRecord): (p: PlatformRecord) => number {
  const order: PlatformRecord[] = [host];
  if (host.architecture === 'amd64') order.push({ os: host.os, architecture: '386' });
  if (host.architecture === 'arm64')
    for (const v of ['v7', 'v6', 'v5']) order.push({ os: host.os, architecture: 'arm', variant: v });
  const norm = (p: PlatformRecord) => {
    const arch =
      p.architecture === 'x86_64' ? 'amd64' : p.architecture === 'aarch64' ? 'arm64' : p.architecture;
    const variant = arch === 'arm64' && (!p.variant || p.variant === '8') ? 'v8' : (p.variant ?? '');
    return `${p.os}/${arch}/${arch === 'amd64' ? '' : variant}`;
  };
  const keys = order.map(norm);
  return (p) => keys.indexOf(norm(p));
}
