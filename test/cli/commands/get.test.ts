// keelctl get against a real node: table, YAML, JSON and watch output byte for byte, and type resolution.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostnameStatus } from '../../../resources/network/hostname-status.js';
import {
  keelctl,
  rfc3339,
  run,
  startMaintenanceNode,
  startNode,
  type TestNode,
  UNREACHABLE,
  type Workdir,
  workdir,
} from '../fixtures.js';

/** tab lays rows out as Go's tabwriter with padding 3 does: each column as wide as its widest cell + 3. */
const tab = (rows: readonly (readonly string[])[]): string => {
  const widths: number[] = [];
  for (const r of rows)
    r.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 0, c.length);
    });
  return rows
    .map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]! + 3))).join(''))
    .map((l) => `${l}\n`)
    .join('');
};

let node: TestNode;
let other: TestNode;
let maintenance: TestNode;
let wd: Workdir;
let addr: string;
const env = () => ({ TALOSCONFIG: wd.talosconfig });

beforeAll(async () => {
  [node, other, maintenance] = await Promise.all([
    startNode('node-a'),
    startNode('node-b'),
    startMaintenanceNode(),
  ]);
  addr = node.server.address;
  wd = await workdir(addr);
});
afterAll(async () => {
  await Promise.all(
    [node, other, maintenance].map((n) => n?.server.close({ signal: AbortSignal.timeout(5_000) })),
  );
  wd?.remove();
});

const hostname = async () =>
  (await node.state.get({ namespace: 'network', type: HostnameStatus.type, id: 'hostname' })).metadata;

describe('keelctl get', () => {
  it('prints a table with the definition print columns', async () => {
    const r = await run(['get', 'machinestatus'], env());
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      tab([
        ['NODE', 'NAMESPACE', 'TYPE', 'ID', 'VERSION', 'STAGE', 'READY'],
        [addr, 'runtime', 'MachineStatus', 'machine', '1', 'running', 'true'],
      ]),
    );
    expect(r.code).toBe(0);
  });

  it('prints one resource as YAML with the node line', async () => {
    const md = await hostname();
    const r = await run(['get', 'hostname', 'hostname', '-o', 'yaml'], env());
    expect(r.stdout).toBe(
      [
        `node: ${addr}`,
        'metadata:',
        '    namespace: network',
        '    type: HostnameStatuses.net.talos.dev',
        '    id: hostname',
        '    version: 1',
        '    owner:',
        '    phase: running',
        `    created: ${rfc3339(md.created)}`,
        `    updated: ${rfc3339(md.updated)}`,
        'spec:',
        '    hostname: node-a',
        '    domainname: example.org',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(0);
  });

  it('prints JSON with sorted keys, a 4-space indent and the node key', async () => {
    const md = await hostname();
    const r = await run(['get', 'hostnamestatuses.net', '-o', 'json'], env());
    expect(r.stdout).toBe(
      [
        '{',
        '    "metadata": {',
        `        "created": "${rfc3339(md.created)}",`,
        '        "id": "hostname",',
        '        "namespace": "network",',
        '        "owner": null,',
        '        "phase": "running",',
        '        "type": "HostnameStatuses.net.talos.dev",',
        `        "updated": "${rfc3339(md.updated)}",`,
        '        "version": 1',
        '    },',
        `    "node": "${addr}",`,
        '    "spec": {',
        '        "domainname": "example.org",',
        '        "hostname": "node-a"',
        '    }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('resolves rd and ns through the definitions, with their print columns', async () => {
    const rd = await run(['get', 'rd', 'namespaces.meta.cosi.dev'], env());
    expect(rd.stdout).toBe(
      tab([
        ['NODE', 'NAMESPACE', 'TYPE', 'ID', 'VERSION', 'ALIASES'],
        [addr, 'meta', 'ResourceDefinition', 'namespaces.meta.cosi.dev', '1', 'ns namespace'],
      ]),
    );
    const ns = await run(['get', 'ns'], env());
    expect(ns.stdout.split('\n')[0]).toMatch(/^NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION$/);
    expect(ns.stdout).toContain('Namespace');
    expect(ns.stdout).toContain('network');
    expect(ns.code).toBe(0);
  });

  it('refuses an ambiguous alias and an unknown type, naming them', async () => {
    const ambiguous = await run(['get', 'ms'], env());
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain(
      'resource type "ms" is ambiguous: [machinestatuses.runtime.talos.dev memberstats.test.keel.dev]',
    );
    const unknown = await run(['get', 'nosuchthing'], env());
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('resource "nosuchthing" is not registered');
  });

  it('names the node when a resource is missing there', async () => {
    const r = await run(['get', 'machinestatus', 'nope'], env());
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: error on node ${addr}: resource MachineStatuses.runtime.talos.dev(runtime/nope) doesn't exist\n`,
    );
  });

  it('watches a kind as a table: bootstrap rows at once, then one row per event, until Ctrl-C', async () => {
    const c = keelctl(['get', 'hostname', '-w'], env());
    const first = tab([
      ['NODE', '*', 'NAMESPACE', 'TYPE', 'ID', 'VERSION', 'HOSTNAME', 'DOMAINNAME'],
      [addr, '+', 'network', 'HostnameStatus', 'hostname', '1', 'node-a', 'example.org'],
    ]);
    await c.waitFor((out) => out === first);
    await node.state.create(HostnameStatus.new('network', 'other', { hostname: 'x', domainname: '' }));
    const created = tab([[addr, '+', 'network', 'HostnameStatus', 'other', '1', 'x', '']]);
    await c.waitFor((out) => out === first + created);
    await node.state.destroy({ namespace: 'network', type: HostnameStatus.type, id: 'other' });
    const destroyed = tab([[addr, '-', 'network', 'HostnameStatus', 'other', '1', 'x', '']]);
    await c.waitFor((out) => out === first + created + destroyed);
    c.interrupt();
    const r = await c.exited;
    expect(r.stdout).toBe(first + created + destroyed);
    expect(r.code).toBe(0);
  });

  it('watches one resource as YAML documents with event lines', async () => {
    const c = keelctl(['get', 'machinestatus', 'machine', '-w', '-o', 'yaml'], env());
    await c.waitFor((out) => out.includes('event: created'));
    const r0 = await node.state.get({
      namespace: 'runtime',
      type: 'MachineStatuses.runtime.talos.dev',
      id: 'machine',
    });
    const updatedMd = await (async () => {
      await node.state.modify(r0, (r) => {
        (r.spec as { stage: string }).stage = 'rebooting';
      });
      return (await node.state.get(r0.metadata)).metadata;
    })();
    const out = await c.waitFor((o) => o.includes('event: updated'));
    expect(out).toBe(
      [
        `node: ${addr}`,
        'event: created',
        'metadata:',
        '    namespace: runtime',
        '    type: MachineStatuses.runtime.talos.dev',
        '    id: machine',
        '    version: 1',
        '    owner:',
        '    phase: running',
        `    created: ${rfc3339(r0.metadata.created)}`,
        `    updated: ${rfc3339(r0.metadata.updated)}`,
        'spec:',
        '    stage: running',
        '    status:',
        '        ready: true',
        '        unmetConditions: []',
        '---',
        `node: ${addr}`,
        'event: updated',
        'metadata:',
        '    namespace: runtime',
        '    type: MachineStatuses.runtime.talos.dev',
        '    id: machine',
        '    version: 2',
        '    owner:',
        '    phase: running',
        `    created: ${rfc3339(updatedMd.created)}`,
        `    updated: ${rfc3339(updatedMd.updated)}`,
        'spec:',
        '    stage: rebooting',
        '    status:',
        '        ready: true',
        '        unmetConditions: []',
        '',
      ].join('\n'),
    );
    c.interrupt();
    expect((await c.exited).code).toBe(0);
  });

  it('asks each node in turn (COSI refuses one-to-many) and prints one table', async () => {
    const b = other.server.address;
    const r = await run(['get', 'hostname', '-n', `${addr},${b}`], env());
    expect(r.stdout).toBe(
      tab([
        ['NODE', 'NAMESPACE', 'TYPE', 'ID', 'VERSION', 'HOSTNAME', 'DOMAINNAME'],
        [addr, 'network', 'HostnameStatus', 'hostname', '1', 'node-a', 'example.org'],
        [b, 'network', 'HostnameStatus', 'hostname', '1', 'node-b', 'example.org'],
      ]),
    );
    expect(r.code).toBe(0);
  });

  it('prints what the reachable nodes have and names the node that failed', async () => {
    const r = await run(['get', 'hostname', '-n', `${addr},${UNREACHABLE}`, '-o', 'json'], env());
    expect(r.stdout).toContain('"hostname": "node-a"');
    expect(r.stderr).toMatch(new RegExp(`^error: error on node ${UNREACHABLE}: `));
    expect(r.code).toBe(1);
  });

  it('reads a maintenance-mode node with --insecure, with an empty NODE column', async () => {
    const r = await run(['get', 'machinestatus', '--insecure', '-n', maintenance.server.address], {
      TALOSCONFIG: '/nonexistent',
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      tab([
        ['NODE', 'NAMESPACE', 'TYPE', 'ID', 'VERSION', 'STAGE', 'READY'],
        ['', 'runtime', 'MachineStatus', 'machine', '1', 'running', 'true'],
      ]),
    );
  });

  it('watches as JSON documents with an event key', async () => {
    const c = keelctl(['get', 'hostname', '-w', '-o', 'json', '-n', other.server.address], env());
    const out = await c.waitFor((o) => o.endsWith('}\n'));
    const doc = JSON.parse(out) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(['event', 'metadata', 'node', 'spec']);
    expect(doc.event).toBe('created');
    expect(doc.node).toBe(other.server.address);
    expect(out.split('\n')[1]).toBe('    "event": "created",');
    c.interrupt();
    expect((await c.exited).code).toBe(0);
  });
});
