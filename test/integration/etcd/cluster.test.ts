// Three container-mode control-plane nodes, each in its own network namespace on one bridge, run a real
// etcd cluster driven only through the stock talosctl (and etcdctl for the keys): bootstrap one, the
// others join as learners and are promoted; a key written through one member is read through another; a
// config change restarts etcd alone; a kill -9 of etcd is followed by a restart and a rejoin; a member
// leaves, a snapshot is taken from another, and a fresh node recovers from it with the key intact.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { etcdCerts } from '../../../controllers/secrets/etcd.js';
import { componentDir } from '../../etcd/fixtures.js';
import { enterNetns } from '../../sys/netns.js';
import {
  addBridge,
  componentsLayer,
  eventually,
  type NetnsNode,
  removeNetns,
  startNode as startNetnsNode,
  stopNodes,
  waitForLine,
} from '../netns-nodes.js';
import { killTalosctls, talosctl, talosctlPath, works } from '../talosctl/talosctl.js';

const SUBNET = '10.77.0';

let work: string;
let bin: string;
let etcdctl: string;
let components: string;
const nodes = new Map<string, NetnsNode>();

/** tc runs talosctl at one node with the cluster's talosconfig. */
const tc = (n: string, talosconfig: string, ...args: string[]) => {
  const at = nodes.get(n)!.ip;
  return talosctl(bin, ['-e', at, '-n', at, ...args], { talosconfig, cwd: work, timeoutMs: 60_000 });
};

let bridgeSeq = 0;
/** startNode makes a namespace on the bridge and runs a node in it with the given config. */
function startNode(name: string, host: number, config: string): NetnsNode {
  const node = startNetnsNode({
    name,
    subnet: SUBNET,
    host,
    bridge: 'kbr0',
    veth: `kb${process.pid % 10000}${bridgeSeq++}`,
    work,
    config,
    components,
  });
  nodes.set(name, node);
  return node;
}

/** etcdPids lists the etcd processes of this test's nodes (by their data directory under `work`). */
function etcdPids(node?: string): number[] {
  const out: number[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (cmd[0]?.endsWith('/etcd') && cmd.some((a) => a.startsWith(`--data-dir=${join(work, node ?? '')}`)))
        out.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

let admin: { ca: string; cert: string; key: string };
/** ctl runs etcdctl against one member with an admin client certificate of the cluster's etcd CA. */
const ctl = (n: string, ...args: string[]) =>
  execFileSync(
    etcdctl,
    [
      `--endpoints=https://${nodes.get(n)!.ip}:2379`,
      `--cacert=${admin.ca}`,
      `--cert=${admin.cert}`,
      `--key=${admin.key}`,
      '--command-timeout=10s',
      ...args,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );

const membersOf = (out: string) =>
  out
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/));

/** adminFiles mints an etcd admin client certificate from a config's etcd CA and writes the PEM files. */
async function adminFiles(config: string, tag: string): Promise<{ ca: string; cert: string; key: string }> {
  const doc = YAML.parse(readFileSync(config, 'utf8').split('\n---\n')[0]!) as {
    cluster: { etcd: { ca: { crt: string; key: string } } };
  };
  const b64 = (s: string) => Buffer.from(s, 'base64').toString();
  const ca = { crt: b64(doc.cluster.etcd.ca.crt), key: b64(doc.cluster.etcd.ca.key) };
  const certs = await etcdCerts(
    { etcdCA: ca },
    { hostname: 'test', dnsNames: [], ipAddresses: [] },
    undefined,
    new Date(),
  );
  const file = (n: string, c: string) => {
    writeFileSync(join(work, `${tag}-${n}`), c, { mode: 0o600 });
    return join(work, `${tag}-${n}`);
  };
  return {
    ca: file('ca.crt', ca.crt),
    cert: file('admin.crt', certs.etcdAdmin!.crt),
    key: file('admin.key', certs.etcdAdmin!.key),
  };
}

let cp: string; // the cluster's talosconfig
let fresh: string; // the recovering node's talosconfig

// this file's own namespace (the bridge's), made at collection so its teardown is registered
enterNetns();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'keel-etcd-cluster-'));
  bin = talosctlPath();
  etcdctl = join(componentDir('etcd'), 'etcdctl');
  components = componentsLayer(work);
  addBridge('kbr0', SUBNET);

  works(
    await talosctl(bin, ['gen', 'config', 'keel-etcd', `https://${SUBNET}.1:6443`, '-o', join(work, 'cp')], {
      cwd: work,
    }),
  );
  works(
    await talosctl(
      bin,
      ['gen', 'config', 'keel-fresh', `https://${SUBNET}.4:6443`, '-o', join(work, 'fresh')],
      { cwd: work },
    ),
  );
  cp = join(work, 'cp', 'talosconfig');
  fresh = join(work, 'fresh', 'talosconfig');
  const config = join(work, 'cp', 'controlplane.yaml');

  // an etcd admin certificate of the cluster's CA, for etcdctl
  admin = await adminFiles(config, 'cp');

  for (const [i, name] of ['n1', 'n2', 'n3'].entries()) startNode(name, i + 1, config);
  for (const n of nodes.values()) await waitForLine(n, /api: serving with mutual TLS/);
}, 20 * 60_000);

afterAll(async () => {
  killTalosctls();
  // what each node printed, for a failure to be read after the fact
  if (process.env.KEEL_TEST_LOGS)
    for (const n of nodes.values()) {
      const etcdLog = await tc(n.name, n.name === 'n4' ? fresh : cp, 'logs', 'etcd');
      writeFileSync(
        join(process.env.KEEL_TEST_LOGS, `${n.name}.log`),
        `${n.lines.join('\n')}\n${etcdLog.output}`,
      );
    }
  // nodes first, gracefully (they stop their etcd); anything left is killed
  await stopNodes(nodes.values());
  if (work) {
    for (const pid of etcdPids()) process.kill(pid, 'SIGKILL');
    rmSync(work, { recursive: true, force: true });
  }
  removeNetns(nodes.values());
}, 60_000);

describe('etcd across three control-plane nodes', () => {
  it(
    'bootstraps on one node; the others join as learners and are promoted',
    async () => {
      const n1 = nodes.get('n1')!;
      // before the bootstrap every node waits, and says how to go on
      await waitForLine(n1, /talosctl bootstrap/);
      works(await tc('n1', cp, 'bootstrap'));
      // a second bootstrap is refused with upstream's error
      const again = await tc('n1', cp, 'bootstrap');
      expect(again.code, again.output).not.toBe(0);
      expect(again.output).toContain('code = AlreadyExists desc = etcd data directory is not empty');

      const members = await eventually('three voting members', 180_000, async () => {
        const out = works(await tc('n1', cp, 'etcd', 'members'));
        const rows = membersOf(out);
        expect(rows.map((r) => r[2]).sort()).toEqual(['n1', 'n2', 'n3']);
        // NODE ID HOSTNAME PEER-URLS CLIENT-URLS LEARNER
        expect(
          rows.every((r) => r.at(-1) === 'false'),
          out,
        ).toBe(true);
        return rows;
      });
      expect(members).toHaveLength(3);
      // the joins were as learners
      for (const n of ['n2', 'n3'])
        expect(nodes.get(n)!.lines.some((l) => /joining as learner/.test(l))).toBe(true);
      await eventually('etcd healthy on every node', 120_000, async () => {
        for (const n of ['n1', 'n2', 'n3'])
          expect(works(await tc(n, cp, 'service', 'etcd'))).toMatch(/HEALTH\s+OK/);
      });
      for (const n of ['n1', 'n2', 'n3'])
        expect(works(await tc(n, cp, 'get', 'etcdmembers'))).toMatch(/EtcdMember\s+local\s+\d+\s+[0-9a-f]+/);
    },
    10 * 60_000,
  );

  it('answers the maintenance calls: alarms, defrag, forfeit-leadership, service restart, etcd resources', async () => {
    expect(works(await tc('n1', cp, 'etcd', 'alarm', 'list'))).toBe('');
    works(await tc('n1', cp, 'etcd', 'alarm', 'disarm'));
    works(await tc('n2', cp, 'etcd', 'defrag'));
    expect(works(await tc('n1', cp, 'get', 'etcdspecs', '-o', 'yaml'))).toContain('name: n1');
    expect(works(await tc('n1', cp, 'get', 'etcdconfigs'))).toMatch(/EtcdConfig\s+etcd/);
    // the leader hands leadership over when asked; a follower has nothing to hand over
    // (read as text: 64-bit IDs do not survive JSON.parse)
    const leaderOf = () => /"leader":(\d+)/.exec(ctl('n1', 'endpoint', 'status', '-w', 'json'))?.[1] ?? '';
    const before = leaderOf();
    const leaderNode = await eventually('the leader found', 30_000, async () => {
      for (const n of ['n1', 'n2', 'n3']) {
        const id = /EtcdMember\s+local\s+\d+\s+([0-9a-f]+)/.exec(
          works(await tc(n, cp, 'get', 'etcdmembers')),
        )?.[1];
        if (id && BigInt(`0x${id}`).toString() === before) return n;
      }
      throw new Error(`no node has member ${before}`);
    });
    for (const n of ['n1', 'n2', 'n3'].filter((x) => x !== leaderNode))
      works(await tc(n, cp, 'etcd', 'forfeit-leadership'));
    expect(leaderOf()).toBe(before);
    works(await tc(leaderNode, cp, 'etcd', 'forfeit-leadership'));
    await eventually('a new leader', 30_000, async () => expect(leaderOf()).not.toBe(before));
    const restarted = works(await tc('n3', cp, 'service', 'etcd', 'restart'));
    expect(restarted).toContain('Service "etcd" restarted');
    await eventually('n3 healthy after its restart', 90_000, async () => {
      expect(works(await tc('n3', cp, 'service', 'etcd'))).toMatch(/HEALTH\s+OK/);
    });
  }, 240_000);

  it('runs containerd from the layer, with its own config and state under the node', async () => {
    await eventually('containerd healthy on n1', 60_000, async () => {
      expect(works(await tc('n1', cp, 'service', 'containerd'))).toMatch(/HEALTH\s+OK/);
    });
    const n1 = nodes.get('n1')!;
    const socket = join(n1.stateDir, 'run/containerd/containerd.sock');
    const ctr = join(components, 'usr/bin/ctr');
    expect(execFileSync(ctr, ['--address', socket, 'version'], { encoding: 'utf8' })).toMatch(
      /Server:\n\s+Version:\s+v2\.4\./,
    );
    expect(readFileSync(join(n1.stateDir, 'run/containerd/config.toml'), 'utf8')).toContain(
      `root = "${join(n1.stateDir, 'var/lib/containerd')}"`,
    );
  }, 120_000);

  it('reads through one member a key written through another', () => {
    ctl('n1', 'put', 'keel/test', 'written-through-n1');
    expect(ctl('n3', 'get', '--print-value-only', 'keel/test').trim()).toBe('written-through-n1');
  });

  it('etcd status answers for the member of each node', async () => {
    const out = works(await tc('n2', cp, 'etcd', 'status'));
    expect(out).toMatch(/MEMBER\s+DB SIZE/);
    expect(out).toContain(nodes.get('n2')!.ip);
  });

  it('restarts etcd alone when a config change touches it', async () => {
    // a service's event list, as `talosctl service <id>` prints it
    // (without the "3s ago" each line ends with, which moves on by itself)
    const events = async (id: string) =>
      (works(await tc('n1', cp, 'service', id)).split(/^EVENTS/m)[1] ?? '').replace(/\s*\([^)]*ago\)/g, '');
    const before = { apid: await events('apid'), containerd: await events('containerd') };
    const etcdBefore = etcdPids('n1');
    works(
      await tc(
        'n1',
        cp,
        'patch',
        'mc',
        '--mode',
        'no-reboot',
        '-p',
        '{"cluster":{"etcd":{"extraArgs":{"heartbeat-interval":"150"}}}}',
      ),
    );
    await eventually('etcd restarted with the new argument', 60_000, async () => {
      const pids = etcdPids('n1');
      expect(pids).toHaveLength(1);
      expect(pids).not.toEqual(etcdBefore);
      expect(readFileSync(`/proc/${pids[0]}/cmdline`, 'utf8')).toContain('--heartbeat-interval=150');
    });
    // the other services saw no new event: only etcd was restarted
    expect(await events('apid')).toBe(before.apid);
    expect(await events('containerd')).toBe(before.containerd);
    expect(await events('etcd')).toMatch(/Stopping service/);
  }, 120_000);

  it('restarts a killed etcd with backoff, and the member rejoins', async () => {
    const [pid] = etcdPids('n2');
    expect(pid).toBeDefined();
    process.kill(pid!, 'SIGKILL');
    await eventually('etcd running again on n2', 60_000, async () => {
      const pids = etcdPids('n2');
      expect(pids).toHaveLength(1);
      expect(pids[0]).not.toBe(pid);
    });
    await eventually('n2 healthy and reading the key', 90_000, async () => {
      expect(works(await tc('n2', cp, 'service', 'etcd'))).toMatch(/HEALTH\s+OK/);
      expect(ctl('n2', 'get', '--print-value-only', 'keel/test').trim()).toBe('written-through-n1');
    });
  }, 180_000);

  it('refuses what cannot be done with upstream’s codes', async () => {
    const unknown = await tc('n1', cp, 'etcd', 'remove-member', '12345');
    expect(unknown.code).not.toBe(0);
    expect(unknown.output).toContain('code = NotFound');
    works(await tc('n3', cp, 'service', 'etcd', 'stop'));
    const down = await tc('n3', cp, 'etcd', 'snapshot', join(work, 'never.db'));
    expect(down.code).not.toBe(0);
    expect(down.output).toContain('code = Unavailable');
    works(await tc('n3', cp, 'service', 'etcd', 'start'));
    await eventually('n3 healthy again', 90_000, async () => {
      expect(works(await tc('n3', cp, 'service', 'etcd'))).toMatch(/HEALTH\s+OK/);
    });
  }, 240_000);

  it(
    'lets one member leave, snapshots another, and recovers a fresh node from the snapshot',
    async () => {
      works(await tc('n3', cp, 'etcd', 'leave'));
      await eventually('two members left', 60_000, async () => {
        expect(
          membersOf(works(await tc('n1', cp, 'etcd', 'members')))
            .map((r) => r[2])
            .sort(),
        ).toEqual(['n1', 'n2']);
      });
      const snapshot = join(work, 'snapshot.db');
      const snap = works(await tc('n2', cp, 'etcd', 'snapshot', snapshot));
      expect(snap).toMatch(/snapshot saved to/);

      const n4 = startNode('n4', 4, join(work, 'fresh', 'controlplane.yaml'));
      await waitForLine(n4, /api: serving with mutual TLS/);
      works(await tc('n4', fresh, 'bootstrap', `--recover-from=${snapshot}`));
      await eventually('n4 healthy', 120_000, async () => {
        expect(works(await tc('n4', fresh, 'service', 'etcd'))).toMatch(/HEALTH\s+OK/);
      });
      expect(n4.lines.some((l) => /restored the data directory/.test(l))).toBe(true);
      // the fresh node has its own etcd CA: its admin certificate is minted from its config
      const admin4 = await adminFiles(join(work, 'fresh', 'controlplane.yaml'), 'fresh');
      const value = execFileSync(
        etcdctl,
        [
          `--endpoints=https://${n4.ip}:2379`,
          `--cacert=${admin4.ca}`,
          `--cert=${admin4.cert}`,
          `--key=${admin4.key}`,
          'get',
          '--print-value-only',
          'keel/test',
        ],
        { encoding: 'utf8' },
      );
      expect(value.trim()).toBe('written-through-n1');
      const m = membersOf(works(await tc('n4', fresh, 'etcd', 'members')));
      expect(m.map((r) => r[2])).toEqual(['n4']);
    },
    10 * 60_000,
  );
});
