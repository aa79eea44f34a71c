// keelctl apply-config --insecure against a container-mode node in maintenance mode, with the bad inputs a
// new user tries: each ends in one line on stderr naming what is wrong and a non-zero exit, refused by the
// node (empty, an alias bomb, a 100,000-character hostname) or before dialling (binary, not UTF-8, too
// big); the node stays up and in maintenance mode.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPatches, encode, loadPatch } from '../../../src/config/index.js';
import { testCluster } from '../../machined/node/cluster.js';
import { cleanup, freePort, type NodeProcess, spawnNode, tempStateDir } from '../../machined/node/harness.js';
import { run, type Workdir, workdir } from '../fixtures.js';

let node: NodeProcess;
let wd: Workdir;
let config: string;

beforeAll(async () => {
  const [cluster, spawned] = await Promise.all([
    testCluster('keel-refusals', 'https://127.0.0.1:6443'),
    freePort().then((port) => spawnNode(tempStateDir(), port)),
  ]);
  node = spawned;
  await node.waitForLine(/server certificate fingerprint: /);
  wd = await workdir(node.address);
  config = encode(cluster.worker);
  const hostname = { machine: { network: { hostname: 'a'.repeat(100_000) } } };
  at('hostname.yaml', encode(applyPatches(cluster.worker, [loadPatch(JSON.stringify(hostname))])));
}, 120_000);

afterAll(async () => {
  await cleanup();
  wd?.remove();
});

const file = (name: string) => join(wd.dir, name);
const at = (name: string, content: string | Buffer) => {
  writeFileSync(file(name), content);
  return file(name);
};

/** a billion laughs: nine levels of ten aliases each, a few hundred bytes that expand to 10⁹ nodes */
function aliasBomb(): string {
  const lines = ['version: v1alpha1', 'machine:', '  type: worker', '  kubelet:', '    extraConfig:'];
  lines.push('      a0: &a0 [x, x, x, x, x, x, x, x, x, x]');
  for (let i = 1; i <= 9; i++)
    lines.push(
      `      a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]`,
    );
  return `${lines.join('\n')}\n`;
}

const apply = (path: string, ...flags: string[]) =>
  run(['apply-config', '--insecure', '-n', node.address, '-f', path, ...flags], {
    TALOSCONFIG: '/nonexistent',
  });

describe('keelctl apply-config --insecure with bad input', () => {
  it('prints one line naming the problem and exits non-zero for each', async () => {
    const cases: [string, RegExp][] = [
      [at('empty.yaml', ''), /code = InvalidArgument desc = .*empty/],
      [at('bomb.yaml', aliasBomb()), /code = InvalidArgument desc = .*extraConfig \(line 6\): .*[Aa]lias/],
      [file('hostname.yaml'), /code = InvalidArgument desc = .*hostname/],
      [at('latin1.yaml', Buffer.from('machine:\n  type: w\xe9rker\n', 'latin1')), /is not UTF-8 text/],
      [at('random-1m.bin', randomBytes(1 << 20)), /reading config .*random-1m\.bin: is (binary|not UTF-8)/],
      [at('random-10m.bin', randomBytes(10 << 20)), /is 10485760 bytes, over the limit of 4194304 bytes/],
    ];
    for (const [path, why] of cases) {
      const r = await apply(path);
      expect(r.code, `${path}: ${r.stderr}`).toBe(1);
      expect(r.stdout, path).toBe('');
      expect(r.stderr, path).toMatch(/^error: [^\n]+\n$/);
      expect(r.stderr, path).toMatch(why);
    }
  }, 120_000);

  it('leaves the node up, in maintenance mode, taking a good config', async () => {
    expect(node.lines.join('\n')).not.toContain('leaving maintenance mode');
    const r = await apply(at('good.yaml', config), '--dry-run');
    expect(r.stderr).not.toContain('error');
    expect(r.code, r.stderr).toBe(0);
  }, 60_000);
});
