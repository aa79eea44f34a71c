import { describe, expect, it } from 'vitest';
import { imageSize, platformOfArch, platformRanker } from '../../src/containerd/index.js';

const MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const INDEX = 'application/vnd.oci.image.index.v1+json';
const blobs = new Map<string, string>([
  [
    'm-amd64',
    JSON.stringify({
      config: { mediaType: 'c', digest: 'c1', size: 100 },
      layers: [{ mediaType: 'l', digest: 'l1', size: 1000 }],
    }),
  ],
  ['m-arm64', JSON.stringify({ config: { mediaType: 'c', digest: 'c2', size: 7 }, layers: [] })],
  [
    'idx',
    JSON.stringify({
      manifests: [
        {
          mediaType: MANIFEST,
          digest: 'm-arm64',
          size: 20,
          platform: { os: 'linux', architecture: 'arm64' },
        },
        {
          mediaType: MANIFEST,
          digest: 'm-amd64',
          size: 10,
          platform: { os: 'linux', architecture: 'amd64' },
        },
      ],
    }),
  ],
]);
const read = async (d: string) => {
  const b = blobs.get(d);
  if (b === undefined) throw new Error(`no blob ${d}`);
  return Buffer.from(b);
};
const amd64 = platformOfArch('x64');

describe('imageSize', () => {
  it('sums a manifest, its config and layers', async () => {
    expect(await imageSize({ mediaType: MANIFEST, digest: 'm-amd64', size: 10 }, read, amd64)).toBe(1110);
  });

  it('takes only the index entry matching the platform', async () => {
    const idx = { mediaType: INDEX, digest: 'idx', size: 5 };
    expect(await imageSize(idx, read, amd64)).toBe(5 + 1110);
    expect(await imageSize(idx, read, platformOfArch('arm64'))).toBe(5 + 20 + 7);
    await expect(imageSize(idx, read, { os: 'linux', architecture: 's390x' })).rejects.toThrow(
      /no match for platform/,
    );
  });

  it('fails when a manifest blob is missing (the size is then left out)', async () => {
    await expect(imageSize({ mediaType: MANIFEST, digest: 'gone', size: 1 }, read, amd64)).rejects.toThrow();
  });
});

describe('platformRanker', () => {
  it('prefers the host, then what it also runs', () => {
    const rank = platformRanker(amd64);
    expect(rank({ os: 'linux', architecture: 'amd64' })).toBe(0);
    expect(rank({ os: 'linux', architecture: 'x86_64' })).toBe(0);
    expect(rank({ os: 'linux', architecture: '386' })).toBe(1);
    expect(rank({ os: 'linux', architecture: 'arm64' })).toBe(-1);
    expect(platformRanker(platformOfArch('arm64'))({ os: 'linux', architecture: 'arm64' })).toBe(0);
  });
});
