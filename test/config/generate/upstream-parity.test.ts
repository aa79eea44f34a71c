// `keelctl gen config` against the stock talosctl's `gen config` (comments off) for the same arguments:
// every document, every key path in order, every value but the random ones (#28). Then talosctl itself
// judges Keel's output with `validate --mode metal --strict`.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMap, isScalar, isSeq, type Node, parseAllDocuments } from 'yaml';
import { DEFAULT_KUBERNETES_VERSION } from '../../../src/config/generate/options.js';
import { talosctlPath } from '../../integration/talosctl/talosctl.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SECRETS = fileURLToPath(new URL('../fixtures/secrets.yaml.txt', import.meta.url));
const FILES = ['controlplane.yaml', 'worker.yaml'] as const;
const SHIPPED = `--kubernetes-version=v${DEFAULT_KUBERNETES_VERSION}`;

interface Variant {
  readonly name: string;
  readonly args: readonly string[];
  /** whether talosctl accepts the result; either way it must judge Keel's output as upstream's */
  readonly valid: boolean;
}
const variants: readonly Variant[] = [
  { name: 'defaults', args: ['demo', 'https://127.0.0.1:6443'], valid: true },
  {
    name: 'versions, SANs, disk, image, domain, no discovery and patches',
    args: [
      'c1',
      'https://api.example.org:6443',
      '--kubernetes-version=v1.35.2',
      '--additional-sans=10.0.0.10,api.example.org',
      '--install-disk=/dev/nvme0n1',
      '--install-image=ghcr.io/example/installer:v1.13.0',
      '--dns-domain=example.local',
      '--with-cluster-discovery=false',
      '--config-patch=machine:\n  sysctls:\n    net.core.somaxconn: "65535"\n',
      '--config-patch-control-plane=cluster:\n  allowSchedulingOnControlPlanes: true\n',
      '--config-patch-worker=machine:\n  nodeLabels:\n    role: worker\n---\napiVersion: v1alpha1\nkind: ResolverConfig\nnameservers:\n  - address: 1.1.1.1\n',
    ],
    valid: true,
  },
  {
    name: 'empty versions, disk, image and domain',
    args: [
      'demo',
      'https://127.0.0.1:6443',
      '--kubernetes-version=',
      '--install-disk=',
      '--install-image=',
      '--dns-domain=',
    ],
    valid: false,
  },
  {
    name: 'the v1.11 contract',
    args: ['demo', 'https://[fd00::1]:6443', '--talos-version=v1.11.5'],
    valid: true,
  },
  { name: 'the v1.7 contract', args: ['demo', 'https://10.5.0.2:6443', '--talos-version=v1.7'], valid: true },
];

// Minted per run on both sides; everything else must match value for value.
const RANDOM = [
  /^machine\.token$/,
  /^machine\.ca\.(crt|key)$/,
  /^cluster\.(id|secret|token|secretboxEncryptionSecret)$/,
  /^cluster\.(ca|aggregatorCA|etcd\.ca)\.(crt|key)$/,
  /^cluster\.serviceAccount\.key$/,
  /^contexts\.[^.]+\.(ca|crt|key)$/, // talosconfig; the CA is the bundle's
];

type Entry = readonly [path: string, value: unknown];

/** entries lists every node of every document in document order: maps and lists by shape, scalars by value. */
function entries(text: string): Entry[] {
  const out: Entry[] = [];
  const walk = (node: unknown, doc: number, path: string): void => {
    if (isMap(node)) {
      out.push([`${doc}:${path}`, '{}']);
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        walk(pair.value, doc, path === '' ? key : `${path}.${key}`);
      }
    } else if (isSeq(node)) {
      out.push([`${doc}:${path}`, `[${node.items.length}]`]);
      for (const [i, item] of node.items.entries()) walk(item, doc, `${path}[${i}]`);
    } else {
      const value = isScalar(node) ? node.value : node;
      const random = RANDOM.some((re) => re.test(path)) && typeof value === 'string' && value !== '';
      out.push([`${doc}:${path}`, random ? '<random>' : value]);
    }
  };
  for (const [i, d] of parseAllDocuments(text).entries()) {
    expect(d.errors).toEqual([]);
    walk(d.contents as Node, i, '');
  }
  return out;
}

describe('gen config matches talosctl v1.13.0 (#28)', () => {
  let talosctl: string;
  const dirs: string[] = [];
  const out = new Map<string, { upstream: string; keel: string }>();
  const tmp = () => {
    const d = mkdtempSync(join(tmpdir(), 'keel-gen-parity-'));
    dirs.push(d);
    return d;
  };
  const gen = async (key: string, args: readonly string[]) => {
    const [upstream, keel] = [tmp(), tmp()];
    await Promise.all([
      // Keel's default Kubernetes version is the one its image ships; a variant's own flag comes later and wins
      run(talosctl, [
        'gen',
        'config',
        SHIPPED,
        ...args,
        '--with-docs=false',
        '--with-examples=false',
        '-o',
        upstream,
      ]),
      run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'gen', 'config', ...args, '-o', keel], {
        cwd: ROOT,
      }),
    ]);
    out.set(key, { upstream, keel });
  };

  // a cold cache builds talosctl from its Go module (minutes, once); a gen takes seconds
  beforeAll(async () => {
    talosctl = talosctlPath();
    await Promise.all([
      ...variants.map((v) => gen(v.name, v.args)),
      gen('with-secrets', ['demo', 'https://10.5.0.2:6443', `--with-secrets=${SECRETS}`]),
    ]);
  }, 30 * 60_000);
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** judge runs `talosctl validate`, with the file's path taken out of what it prints */
  const judge = async (path: string) => {
    const r = await run(talosctl, ['validate', '--config', path, '--mode', 'metal', '--strict']).then(
      (ok) => ({ valid: true, output: ok.stdout + ok.stderr }),
      (e: { stdout: string; stderr: string }) => ({ valid: false, output: e.stdout + e.stderr }),
    );
    return { ...r, output: r.output.replaceAll(path, '<config>') };
  };
  const read = (key: string, file: string) => {
    const o = out.get(key)!;
    return {
      upstream: readFileSync(join(o.upstream, file), 'utf8'),
      keel: readFileSync(join(o.keel, file), 'utf8'),
    };
  };

  for (const v of variants)
    for (const file of FILES) {
      it(`${v.name}: ${file} has upstream's documents, keys, order and values`, () => {
        const { upstream, keel } = read(v.name, file);
        expect(entries(keel)).toEqual(entries(upstream));
      });

      it(`${v.name}: talosctl judges Keel's ${file} for metal, strictly, as upstream's`, async () => {
        const o = out.get(v.name)!;
        const [keel, upstream] = await Promise.all([
          judge(join(o.keel, file)),
          judge(join(o.upstream, file)),
        ]);
        expect(keel).toEqual(upstream);
        expect(keel.valid, keel.output).toBe(v.valid);
      });
    }

  it("writes talosconfig's keys, order and values as upstream", () => {
    const { upstream, keel } = read('defaults', 'talosconfig');
    expect(entries(keel)).toEqual(entries(upstream));
  });

  for (const file of FILES)
    it(`with one secrets bundle, ${file} is byte for byte upstream's`, () => {
      const { upstream, keel } = read('with-secrets', file);
      expect(keel).toBe(upstream);
    });
});
