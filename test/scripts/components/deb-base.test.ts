// An image's base as scripts/components/deb-base.ts lays it out, from the netfilter base's pinned packages
// (images/components.yaml; fetched once into the Debian-packages cache): what it holds, and the pins
// refused when they are more or less than the files need.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { cacheDir } from '../../../scripts/components/build.js';
import { debBaseFiles } from '../../../scripts/components/deb-base.js';
import { type DebBase, parseImages } from '../../../scripts/components/image-manifest.js';
import type { OciFile } from '../../../scripts/components/oci-archive.js';

const manifest = fileURLToPath(new URL('../../../images/components.yaml', import.meta.url));
/** a first download of the 15 packages from the mirror */
const FETCH_TIMEOUT = 120_000;

let netfilter: DebBase;

beforeAll(async () => {
  const images = parseImages(await readFile(manifest, 'utf8'));
  netfilter = images.find((i) => i.name === 'flannel')!.base!;
});

async function lay(base: DebBase): Promise<OciFile[]> {
  const work = await mkdtemp(join(tmpdir(), 'keel-deb-base-'));
  onTestFinished(() => rm(work, { recursive: true, force: true }));
  return debBaseFiles(base, join(cacheDir(), 'debs'), work, 'amd64');
}

describe('a base of Debian packages', () => {
  it(
    'holds the named files, what their links point at, their libraries and the extra names',
    async () => {
      const files = new Map((await lay(netfilter)).map((f) => [f.path, f]));
      expect(files.get('/usr/sbin/iptables')).toEqual({
        path: '/usr/sbin/iptables',
        type: 'symlink',
        target: 'xtables-nft-multi',
      });
      // the packages' own link, kept, and the program it names
      expect(files.get('/usr/sbin/iptables-nft')).toMatchObject({
        type: 'symlink',
        target: 'xtables-nft-multi',
      });
      expect(files.get('/usr/sbin/xtables-nft-multi')).toMatchObject({ type: 'file', mode: 0o755 });
      // the plugins iptables loads by name, links among them as the package has them
      const xtables = '/usr/lib/x86_64-linux-gnu/xtables';
      expect(files.get(`${xtables}/libxt_comment.so`)).toMatchObject({ type: 'file', mode: 0o644 });
      expect(files.get(`${xtables}/libxt_MASQUERADE.so`)).toMatchObject({
        type: 'symlink',
        target: 'libxt_NAT.so',
      });
      expect(files.get(`${xtables}/libxt_NAT.so`)).toMatchObject({ type: 'file' });
      expect(files.get('/lib64/ld-linux-x86-64.so.2')).toMatchObject({ type: 'symlink' });
      expect(files.get('/usr/lib/x86_64-linux-gnu/libnftnl.so.11')).toMatchObject({ type: 'symlink' });
      expect(files.get('/lib/x86_64-linux-gnu/libc.so.6')).toMatchObject({ type: 'file', mode: 0o755 });
      // only what the loader opens: not the legacy backend, not libc6's other libraries
      expect(files.has('/usr/sbin/xtables-legacy-multi')).toBe(false);
      expect(files.has('/lib/x86_64-linux-gnu/libresolv.so.2')).toBe(false);
    },
    FETCH_TIMEOUT,
  );

  it('refuses a library none of the packages holds', async () => {
    const debs = netfilter.debs.filter((d) => d.package !== 'libgmp10');
    await expect(lay({ ...netfilter, debs })).rejects.toThrow('needs libgmp.so.10, which no package holds');
  });

  it('refuses a package nothing comes from', async () => {
    const base = { ...netfilter, files: ['/usr/sbin/nft'], links: [] };
    await expect(lay(base)).rejects.toThrow('the base needs nothing of iptables, libnetfilter-conntrack3');
  });

  it('refuses a file in no package', async () => {
    await expect(lay({ ...netfilter, files: ['/usr/sbin/ipset'] })).rejects.toThrow(
      "/usr/sbin/ipset: /usr/sbin/ipset is in none of the base's packages",
    );
  });
});
