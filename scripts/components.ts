// Builds the components of images/components.yaml (etcd, containerd, runc, the CNI plugins, Kubernetes) from
// their Go modules and its images (OCI archives), cached outside the work tree, and the node's extension
// layers of them.
// usage: node --import tsx scripts/components.ts [NAME...]     build (or find cached) and print each directory
//                                                             (an image's holds <name>.tar)
//        node --import tsx scripts/components.ts --layer OUT [--layer-name components|kubernetes]
//                                                             build what the layer holds and write it to OUT
//        [--manifest images/components.yaml]
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Built, buildComponent } from './components/build.js';
import { ComponentsError } from './components/errors.js';
import { type BuiltImage, buildImage } from './components/image.js';
import { parseImages } from './components/image-manifest.js';
import { buildLayer } from './components/layer.js';
import { DEFAULT_LAYER, parseComponents } from './components/manifest.js';

const repo = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      layer: { type: 'string' },
      'layer-name': { type: 'string', default: DEFAULT_LAYER },
      manifest: { type: 'string', default: repo('images/components.yaml') },
    },
    allowPositionals: true,
    strict: true,
  });
  const text = await readFile(values.manifest, 'utf8');
  const all = parseComponents(text, values.manifest);
  const images = parseImages(text, values.manifest);
  const names = [...all.map((c) => c.name), ...images.map((i) => i.name)];
  const layerName = values['layer-name'];
  if (values.layer && positionals.length)
    throw new ComponentsError('usage', 'usage: components.ts --layer OUT (the layer holds all it names)');
  const unknown = positionals.filter((n) => !names.includes(n));
  if (unknown.length)
    throw new ComponentsError('usage', `unknown component ${unknown.join(', ')} (${names.join(', ')})`);
  const named = (n: { name: string; layer: string }) =>
    values.layer ? n.layer === layerName : !positionals.length || positionals.includes(n.name);
  const wanted = all.filter(named);
  const wantedImages = images.filter(named);
  if (values.layer && !wanted.length && !wantedImages.length)
    throw new ComponentsError('usage', `no component or image ships in a layer '${layerName}'`);
  // the components an image is made from are built first, printed only when named
  const made = new Set(
    wantedImages.flatMap((i) => (i.source.kind === 'busybox' ? [] : [i.source.component])),
  );

  const log = (l: string) => console.error(`components: ${l}`);
  const builds = new Map<string, Built>();
  for (const c of all.filter((c) => wanted.includes(c) || made.has(c.name))) {
    const b = await buildComponent(c, { log });
    builds.set(c.name, b);
    if (!values.layer && wanted.includes(c)) console.log(b.dir);
  }
  const imgs: BuiltImage[] = [];
  for (const i of wantedImages) {
    const b = await buildImage(i, { log, components: builds });
    imgs.push(b);
    if (!values.layer) console.log(b.dir);
  }
  if (!values.layer) return;
  const shipped = wanted.map((c) => builds.get(c.name)!);
  const { size, binaries } = await buildLayer(values.layer, shipped, imgs);
  console.error(`components: ${values.layer}: ${mb(size)} (${binaries.length} binaries)`);
  for (const b of binaries) console.error(`  ${mb(b.size).padStart(9)}  ${b.path}`);
}

const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;

main().catch((err: unknown) => {
  console.error(err instanceof ComponentsError ? `components: ${err.message}` : err);
  process.exitCode = 1;
});
