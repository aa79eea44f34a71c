// keelctl version: the client section, then each node's section, one-to-many through node routing,
// per-node failures named, and --insecure against a maintenance-mode node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keelVersion, wireTag } from '../../../src/api/version.js';
import {
  run,
  startMaintenanceNode,
  startNode,
  type TestNode,
  UNREACHABLE,
  type Workdir,
  workdir,
} from '../fixtures.js';

let a: TestNode;
let b: TestNode;
let maintenance: TestNode;
let wd: Workdir;

beforeAll(async () => {
  [a, b, maintenance] = await Promise.all([startNode('node-a'), startNode('node-b'), startMaintenanceNode()]);
  wd = await workdir(a.server.address);
});
afterAll(async () => {
  await Promise.all([a, b, maintenance].map((n) => n?.server.close({ signal: AbortSignal.timeout(5_000) })));
  wd?.remove();
});

// without git on PATH the client falls back to package.json's version, the same one the servers here report
const NO_GIT = { PATH: '/nonexistent' };
const v = keelVersion();
const client = [
  'Client:',
  `\tTag:         ${v.tag}`,
  `\tSHA:         ${v.sha}`,
  `\tBuilt:       ${v.built}`,
  `\tGo version:  ${v.go_version}`,
  `\tOS/Arch:     ${v.os}/${v.arch}`,
];
const server = (node: string, enabled: string) => [
  `\tNODE:        ${node}`,
  `\tTag:         ${wireTag(v.tag)}`,
  `\tSHA:         ${v.sha}`,
  `\tBuilt:       ${v.built}`,
  `\tGo version:  ${v.go_version}`,
  `\tOS/Arch:     ${v.os}/${v.arch}`,
  `\tEnabled:     ${enabled}`,
];
const lines = (...ls: string[][]) => `${ls.flat().join('\n')}\n`;

describe('keelctl version', () => {
  it('prints the client and the node, as talosctl lays them out', async () => {
    const r = await run(['version'], { ...NO_GIT, TALOSCONFIG: wd.talosconfig });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(lines(client, ['Server:'], server(a.server.address, 'RBAC')));
    expect(r.code).toBe(0);
  });

  it('prints the client alone with --client', async () => {
    const r = await run(['version', '--client'], { ...NO_GIT, TALOSCONFIG: wd.talosconfig });
    expect(r.stdout).toBe(lines(client));
  });

  it('asks several nodes at once through the endpoint, one section each', async () => {
    const nodes = `${a.server.address},${b.server.address}`;
    const r = await run(['version', '-n', nodes], { ...NO_GIT, TALOSCONFIG: wd.talosconfig });
    expect(r.stdout).toBe(
      lines(client, ['Server:'], server(a.server.address, 'RBAC'), server(b.server.address, 'RBAC')),
    );
    expect(r.code).toBe(0);
  });

  it('names the node that failed and still prints the others, exiting non-zero', async () => {
    const r = await run(['version', '-n', `${a.server.address},${UNREACHABLE}`], {
      ...NO_GIT,
      TALOSCONFIG: wd.talosconfig,
    });
    expect(r.stdout).toBe(lines(client, ['Server:'], server(a.server.address, 'RBAC')));
    expect(r.stderr).toMatch(new RegExp(`^error: error on node ${UNREACHABLE}: .+`));
    expect(r.code).toBe(1);
  });

  it('uses the named context and -e over the talosconfig', async () => {
    const r = await run(['version', '--context', 'nope'], { ...NO_GIT, TALOSCONFIG: wd.talosconfig });
    expect(r.stderr).toBe('error: context "nope" is not defined\n');
    expect(r.code).toBe(1);
    const e = await run(['version', '-e', b.server.address, '-n', b.server.address], {
      ...NO_GIT,
      TALOSCONFIG: wd.talosconfig,
    });
    expect(e.stdout).toBe(lines(client, ['Server:'], server(b.server.address, 'RBAC')));
  });

  it('talks to a maintenance-mode node with --insecure, without a talosconfig', async () => {
    const r = await run(['version', '--insecure', '-n', maintenance.server.address], {
      ...NO_GIT,
      TALOSCONFIG: '/nonexistent/talosconfig',
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(lines(client, ['Server:'], server(maintenance.server.address, '')));
    expect(r.code).toBe(0);
  });

  it('fails against a maintenance-mode node without --insecure, naming the node', async () => {
    const r = await run(['version', '-e', maintenance.server.address, '-n', maintenance.server.address], {
      ...NO_GIT,
      TALOSCONFIG: wd.talosconfig,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error on node ${maintenance.server.address}:`);
  });
});
