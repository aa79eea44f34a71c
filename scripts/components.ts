// Builds the components of images/components.yaml (etcd, containerd, runc, the CNI plugins) from their Go
// modules and its images (OCI archives), cached outside the work tree, and the node's extension layer of them.
// usage: node --import tsx scripts/components.ts [NAME...]     build (or find cached) and print each directory
//                                                             (an image's holds <name>.tar)
//        node --import tsx scripts/components.ts --layer OUT   build all and write the layer (squashfs) to OUT
//        [--manifest images/components.yaml]
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Built, buildComponent } from './components/build.js';
import { ComponentsError } from './components/errors.js';
import { type BuiltImage, buildImage } from './components/image.js';
import { parseImages } from './components/image-manifest.js';
import { buildLayer } from './components/layer.js';
import { parseComponents } from './components/manifest.js';

const repo = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      layer: { type: 'string' },
      manifest: { type: 'string', default: repo('images/components.yaml') },
    },
    allowPositionals: true,
    strict: true,
  });
  const text = await readFile(values.manifest, 'utf8');
  const all = parseComponents(text, values.manifest);
  const images = parseImages(text, values.manifest);
  const names = [...all.map((c) => c.name), ...images.map((i) => i.name)];
  if (values.layer && positionals.length)
    throw new ComponentsError('usage', 'usage: components.ts --layer OUT (the layer holds every component)');
  const unknown = positionals.filter((n) => !names.includes(n));
  if (unknown.length)
    throw new ComponentsError('usage', `unknown component ${unknown.join(', ')} (${names.join(', ')})`);
  const wanted = positionals.length ? all.filter((c) => positionals.includes(c.name)) : all;
  const wantedImages = positionals.length ? images.filter((i) => positionals.includes(i.name)) : images;

  const builds: Built[] = [];
  for (const c of wanted) {
    const b = await buildComponent(c, { log: (l) => console.error(`components: ${l}`) });
    builds.push(b);
    if (!values.layer) console.log(b.dir);
  }
  const imgs: BuiltImage[] = [];
  for (const i of wantedImages) {
    const b = await buildImage(i, { log: (l) => console.error(`components: ${l}`) });
    imgs.push(b);
    if (!values.layer) console.log(b.dir);
  }
  if (!values.layer) return;
  const { size, binaries } = await buildLayer(values.layer, builds, imgs);
  console.error(`components: ${values.layer}: ${mb(size)} (${binaries.length} binaries)`);
  for (const b of binaries) console.error(`  ${mb(b.size).padStart(9)}  ${b.path}`);
}

const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;

main().catch((err: unknown) => {
  console.error(err instanceof ComponentsError ? `components: ${err.message}` : err);
  process.exitCode = 1;
});
