// Global flags before or after the command name (#28): every online command in main's table is run both ways
// against a real node, with a talosconfig whose own choices all fail, so only flags that were read can reach it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Output } from '../../src/cli/io.js';
import { commands, main } from '../../src/cli/main.js';
import { encodeTalosconfig, newTalosconfig } from '../../src/config/generate/talosconfig.js';
import {
  pki,
  startMaintenanceNode,
  startNode,
  type TestNode,
  UNREACHABLE,
  type Workdir,
  workdir,
} from './fixtures.js';

/** Arguments each command needs to get as far as the node; the rest need none. */
const SAMPLE: Readonly<Record<string, readonly string[]>> = {
  get: ['machinestatuses'],
  logs: ['machined'],
  read: ['/etc/hostname'],
  cp: ['/etc/hostname', '-'],
  reset: ['--wait=false'],
  shutdown: ['--wait=false'],
};

const online = commands.filter((c) => 'nodes' in c.global);
const b64 = (s: string) => Buffer.from(s).toString('base64');

async function capture(argv: readonly string[]): Promise<{ code: number; text: string }> {
  const lines: string[] = [];
  const io: Output = { out: (l) => lines.push(l), err: (l) => lines.push(l), raw: () => undefined };
  const code = await main(argv, io);
  return { code, text: lines.join('\n') };
}

let node: TestNode;
let maintenance: TestNode;
let wd: Workdir;
let talosconfig: string;
let configFile: string;

beforeAll(async () => {
  [node, maintenance] = await Promise.all([startNode('node-a'), startMaintenanceNode()]);
  wd = await workdir(UNREACHABLE);
  const p = await pki();
  // the file's current context does not exist, and the one --context picks points nowhere but holds the keys
  const cfg = newTalosconfig({
    clusterName: 'picked',
    osCACrt: b64(p.osCA.crt),
    admin: { crt: b64(p.admin.crt), key: b64(p.admin.key) },
    endpoints: [UNREACHABLE],
  });
  cfg.contexts.picked!.nodes = [UNREACHABLE];
  talosconfig = join(wd.dir, 'picked-config');
  writeFileSync(talosconfig, encodeTalosconfig({ ...cfg, context: 'absent' }));
  configFile = join(wd.dir, 'machine.yaml');
  writeFileSync(configFile, 'version: v1alpha1\n');
  process.env.TALOSCONFIG = wd.talosconfig; // were --talosconfig ignored, this one points nowhere
});
afterAll(async () => {
  await Promise.all([node, maintenance].map((n) => n?.server.close({ signal: AbortSignal.timeout(5_000) })));
  wd?.remove();
});

const sample = (name: string) => [
  ...(SAMPLE[name] ?? []),
  ...(name === 'apply-config' ? ['-f', configFile] : []),
];

describe('global flags before and after the command', () => {
  it.each(online.map((c) => [c.name] as const))('%s', async (name) => {
    const a = node.server.address;
    const global = ['--talosconfig', talosconfig, '--context', 'picked', '-e', a, '-n', a];
    const words = name.split(' ');
    const before = await capture([...global, ...words, ...sample(name)]);
    const after = await capture([...words, ...sample(name), ...global]);
    for (const r of [before, after]) {
      expect(r.text).not.toMatch(/unknown flag|is not defined|failed to read config file|127\.0\.0\.1:1\b/);
      expect(r.text).toContain(a); // the node answered, or its failure is named
    }
    expect(after.code).toBe(before.code);
  });

  it.each(online.filter((c) => 'insecure' in c.flags).map((c) => [c.name] as const))(
    '%s -i',
    async (name) => {
      const m = maintenance.server.address;
      const words = name.split(' ');
      const before = await capture(['-i', '-n', m, ...words, ...sample(name)]);
      const after = await capture([...words, ...sample(name), '-i', '-n', m]);
      for (const r of [before, after]) {
        expect(r.text).not.toMatch(/unknown flag|failed to read config file|certificate/);
      }
      expect(after).toEqual(before);
    },
  );
});
