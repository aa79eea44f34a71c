// Acceptance: a client built only from the checked-in protos calls every implemented RPC of a container node
// over mutual TLS and gets a well-formed answer, every RPC without a handler answers UNIMPLEMENTED with a
// message, and an API handler that throws or rejects fails its call without taking the process down.
import { gunzipSync } from 'node:zlib';
import { type ChannelCredentials, type Client, credentials, type ServiceError, status } from '@grpc/grpc-js';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { debugHandlers } from '../../../src/api/debug/index.js';
import { type HandlerMap, serverStreamHandler, unaryHandler } from '../../../src/api/handlers.js';
import { systemInfoHandlers } from '../../../src/api/machine/index.js';
import { type StatefulDeps, statefulHandlers } from '../../../src/api/machine-stateful/index.js';
import { loadApiProto } from '../../../src/api/proto.js';
import { type ApiServer, startApiServer } from '../../../src/api/server.js';
import { type Config, encode } from '../../../src/config/index.js';
import {
  callStream,
  callUnary,
  errorOf,
  mintPKI,
  mtls,
  nodeState,
  type Reply,
  rawCall,
  serviceClient,
  takeStream,
} from '../../api/fixtures.js';
import { testCluster } from './cluster.js';
import { cleanup, freePort, type NodeProcess, spawnNode, tempStateDir } from './harness.js';

/** The Talos services this acceptance covers; COSI State has its own tests. */
const SERVICES = [
  'machine.MachineService',
  'machine.ImageService',
  'machine.LifecycleService',
  'machine.DebugService',
  'storage.StorageService',
  'time.TimeService',
  'cluster.ClusterService',
  'inspect.InspectService',
] as const;

interface MethodInfo {
  readonly service: string;
  readonly name: string;
  readonly path: string;
  readonly requestStream: boolean;
  readonly responseStream: boolean;
}

/** methodsOf lists every RPC the checked-in protos declare for SERVICES. */
function methodsOf(): MethodInfo[] {
  const pkg = loadApiProto().packageDefinition;
  return SERVICES.flatMap((service) =>
    Object.entries(pkg[service] as unknown as Record<string, MethodInfo>).map(([name, def]) => ({
      service,
      name,
      path: def.path,
      requestStream: def.requestStream,
      responseStream: def.responseStream,
    })),
  );
}

/** handledPaths is what the node mounts: the system-info and stateful maps with every dependency present. */
function handledPaths(): Set<string> {
  const present = {} as never;
  const deps: StatefulDeps = {
    config: present,
    events: present,
    services: present,
    logs: present,
    power: present,
    clients: present,
    meta: present,
    etcd: present,
    containerd: present,
    state: present,
  };
  return new Set([
    '/machine.MachineService/Version',
    ...Object.keys(systemInfoHandlers({ dependencyGraph: () => present })),
    ...Object.keys(statefulHandlers(deps)),
    ...Object.keys(debugHandlers(present)),
  ]);
}

const _pem = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
const insecure = () =>
  credentials.createSsl(null, null, null, {
    rejectUnauthorized: false,
    checkServerIdentity: () => undefined,
  });

let controlplane: Config;
let adminCreds: () => ChannelCredentials;
const clients: Client[] = [];
const servers: ApiServer[] = [];

beforeAll(async () => {
  ({ controlplane, adminCreds } = await testCluster('keel-every-rpc', 'https://127.0.0.1:6443'));
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => s.close({ signal: AbortSignal.timeout(1_000) })));
  await cleanup();
});

const client = (service: string, address: string, creds = insecure()) => {
  const c = serviceClient(service, address, creds);
  clients.push(c);
  return c;
};

/** configuredNode spawns a node in maintenance mode, applies the controlplane config and waits until it runs. */
async function configuredNode(): Promise<NodeProcess> {
  const node = await spawnNode(tempStateDir(), await freePort());
  await node.waitForLine(/server certificate fingerprint: /);
  await callUnary(client('machine.MachineService', node.address), 'ApplyConfiguration', {
    data: Buffer.from(encode(controlplane)),
    mode: 'AUTO',
  });
  await node.waitForLine(/node running/);
  return node;
}

type Clients = Record<'machine' | 'storage' | 'time' | 'inspect' | 'cluster', Client>;
const first = (r: Reply): Reply => (r.messages as Reply[])[0]!;
const text = (chunks: Reply[]) => Buffer.concat(chunks.map((d) => d.bytes as Buffer)).toString();
/** unimplementedWithMessage asserts a handler that refuses honestly: UNIMPLEMENTED and a reason. */
const unimplementedWithMessage = async (p: Promise<unknown>, re: RegExp) => {
  const err = await errorOf(p);
  expect(err.code).toBe(status.UNIMPLEMENTED);
  expect(err.details).toMatch(re);
};

/**
 * One minimal valid call per handled RPC, checking the answer's content. Reboot, Shutdown and Reset are
 * called last (Shutdown ends the run); TimeCheck and Reset have handlers that refuse honestly because the
 * subsystem behind them does not exist yet.
 */
const CASES: Record<string, (c: Clients) => Promise<void>> = {
  '/machine.MachineService/Version': async ({ machine }) => {
    const v = first(await callUnary(machine, 'Version', {})).version as Reply;
    expect(String(v.tag)).not.toBe('');
  },
  '/machine.MachineService/ApplyConfiguration': async ({ machine }) => {
    const m = first(
      await callUnary(machine, 'ApplyConfiguration', {
        data: Buffer.from(encode(controlplane)),
        mode: 'NO_REBOOT',
        dry_run: true,
      }),
    );
    expect(String(m.mode_details)).toContain('Dry run');
  },
  '/machine.MachineService/Memory': async ({ machine }) => {
    const m = first(await callUnary(machine, 'Memory', {}));
    expect(Number((m.meminfo as Reply).memtotal)).toBeGreaterThan(0);
  },
  '/machine.MachineService/Processes': async ({ machine }) => {
    const ps = first(await callUnary(machine, 'Processes', {})).processes as Reply[];
    expect(ps.some((p) => Number(p.pid) > 0)).toBe(true);
  },
  '/machine.MachineService/Mounts': async ({ machine }) => {
    const stats = first(await callUnary(machine, 'Mounts', {})).stats as Reply[];
    expect(stats.length).toBeGreaterThan(0);
    expect(stats.some((s) => s.mounted_on === '/')).toBe(true);
  },
  '/machine.MachineService/Hostname': async ({ machine }) => {
    expect(String(first(await callUnary(machine, 'Hostname', {})).hostname)).not.toBe('');
  },
  '/machine.MachineService/LoadAvg': async ({ machine }) => {
    expect(typeof first(await callUnary(machine, 'LoadAvg', {})).load1).toBe('number');
  },
  '/machine.MachineService/SystemStat': async ({ machine }) => {
    const m = first(await callUnary(machine, 'SystemStat', {}));
    expect(Number(m.boot_time)).toBeGreaterThan(0);
    expect((m.cpu as Reply[]).length).toBeGreaterThan(0);
  },
  '/machine.MachineService/CPUInfo': async ({ machine }) => {
    expect((first(await callUnary(machine, 'CPUInfo', {})).cpu_info as Reply[]).length).toBeGreaterThan(0);
  },
  '/machine.MachineService/Read': async ({ machine }) => {
    expect(text(await callStream(machine, 'Read', { path: '/proc/version' }))).toMatch(/\S/);
  },
  '/machine.MachineService/List': async ({ machine }) => {
    const entries = await callStream(machine, 'List', { root: '/proc' });
    expect(entries.map((e) => e.name)).toContain('/proc/version');
  },
  '/machine.MachineService/Copy': async ({ machine }) => {
    const tar = Buffer.concat(
      (await callStream(machine, 'Copy', { root_path: '/proc/sys/kernel/ostype' })).map(
        (d) => d.bytes as Buffer,
      ),
    );
    // a gzipped tar, as upstream: one header (512 bytes) at least once unpacked, naming the file
    expect(tar.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const plain = gunzipSync(tar);
    expect(plain.length).toBeGreaterThanOrEqual(512);
    expect(plain.toString('latin1')).toContain('ostype');
  },
  '/machine.MachineService/Kubeconfig': async ({ machine }) => {
    // one Data: a gzipped tar whose one entry, `kubeconfig`, names the cluster endpoint
    const chunks = await callStream(machine, 'Kubeconfig', {});
    expect(chunks).toHaveLength(1);
    const plain = gunzipSync(chunks[0]!.bytes as Buffer).toString('latin1');
    expect(plain.startsWith('kubeconfig\0')).toBe(true);
    expect(plain).toContain('server: https://127.0.0.1:6443');
  },
  '/machine.MachineService/DiskUsage': async ({ machine }) => {
    const infos = await callStream(machine, 'DiskUsage', { paths: ['/proc/sys/kernel'], recursion_depth: 1 });
    expect(infos.length).toBeGreaterThan(0);
    expect(infos.some((i) => String(i.name).startsWith('/proc/sys/kernel'))).toBe(true);
  },
  '/machine.MachineService/Dmesg': async ({ machine }) => {
    // the host may deny /dev/kmsg to an unprivileged process: then the refusal must say so
    const got = await callStream(machine, 'Dmesg', {}).then(
      (chunks) => ({ log: text(chunks) }),
      (err: ServiceError) => ({ err }),
    );
    if ('err' in got) {
      expect([status.PERMISSION_DENIED, status.UNAVAILABLE, status.NOT_FOUND]).toContain(got.err.code);
      expect(got.err.details).toMatch(/\S/);
    } else if (got.log !== '') expect(got.log).toMatch(/: \[\d{4}-\d\d-\d\dT[^\]]+\]: /);
  },
  '/storage.StorageService/Disks': async ({ storage }) => {
    const m = first(await callUnary(storage, 'Disks', {}));
    expect(Array.isArray(m.disks ?? [])).toBe(true);
  },
  '/time.TimeService/Time': ({ time }) => unimplementedWithMessage(callUnary(time, 'Time', {}), /NTP/),
  '/time.TimeService/TimeCheck': ({ time }) =>
    unimplementedWithMessage(callUnary(time, 'TimeCheck', { server: 'pool.ntp.org' }), /NTP/),
  '/inspect.InspectService/ControllerRuntimeDependencies': async ({ inspect }) => {
    const edges = first(await callUnary(inspect, 'ControllerRuntimeDependencies', {})).edges as Reply[];
    expect(edges.length).toBeGreaterThan(0);
    expect(String(edges[0]!.controller_name)).not.toBe('');
  },
  '/machine.MachineService/Events': async ({ machine }) => {
    const [hello] = await takeStream(machine, 'Events', { tail_events: 0 }, 1);
    expect(String(hello!.id)).toHaveLength(20);
  },
  '/machine.MachineService/ServiceList': async ({ machine }) => {
    const list = first(await callUnary(machine, 'ServiceList', {})).services as Reply[];
    expect(list.map((s) => [s.id, s.state])).toContainEqual(['apid', 'Running']);
  },
  '/machine.MachineService/ServiceStart': async ({ machine }) => {
    // starting a running service changes nothing: apid keeps serving this very call
    expect(first(await callUnary(machine, 'ServiceStart', { id: 'apid' })).resp).toBe(
      'Service "apid" started',
    );
  },
  // stopping apid would end the API this test talks through: a name that is not registered reaches the
  // handler and is refused by it
  '/machine.MachineService/ServiceStop': async ({ machine }) => {
    const err = await errorOf(callUnary(machine, 'ServiceStop', { id: 'no-such-service' }));
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    expect(err.details).toContain('no-such-service');
  },
  '/machine.MachineService/ServiceRestart': async ({ machine }) => {
    const err = await errorOf(callUnary(machine, 'ServiceRestart', { id: 'no-such-service' }));
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    expect(err.details).toContain('no-such-service');
  },
  '/machine.MachineService/Logs': async ({ machine }) => {
    const logs = text(
      await callStream(machine, 'Logs', { namespace: 'system', id: 'machined', tail_lines: 20 }),
    );
    expect(logs.split('\n').filter(Boolean).length).toBeGreaterThan(0);
  },
  '/machine.MachineService/LogsContainers': async ({ machine }) => {
    expect(first(await callUnary(machine, 'LogsContainers', {})).ids).toEqual(
      expect.arrayContaining(['apid', 'machined']),
    );
  },
  '/machine.MachineService/GenerateClientConfiguration': async ({ machine }) => {
    const m = first(await callUnary(machine, 'GenerateClientConfiguration', { roles: ['os:reader'] }));
    expect((m.crt as Buffer).toString()).toContain('BEGIN CERTIFICATE');
    expect((m.talosconfig as Buffer).toString()).toMatch(/^contexts:$/m);
    expect((m.talosconfig as Buffer).toString()).toContain('127.0.0.1');
  },
  // this control plane runs no etcd (no components layer): the first check waits for it until the time is up
  '/cluster.ClusterService/HealthCheck': async ({ cluster }) => {
    const lines: string[] = [];
    const err = await new Promise<ServiceError | undefined>((resolve) => {
      const call = (cluster as unknown as Record<string, Function>).HealthCheck!.call(cluster, {
        wait_timeout: { seconds: '2', nanos: 0 },
        cluster_info: { control_plane_nodes: ['127.0.0.1'] },
      });
      call.on('data', (m: Reply) => lines.push(String(m.message)));
      call.on('error', resolve);
      call.on('end', () => resolve(undefined));
    });
    expect(lines.slice(0, 2)).toEqual([
      'discovered nodes: ["127.0.0.1"]',
      'waiting for etcd to be healthy: ...',
    ]);
    expect(lines.at(-1)).toBe('waiting for etcd to be healthy: expected a response with 1 node(s), got 0');
    expect(err?.code).toBe(status.DEADLINE_EXCEEDED);
  },
  // a container node has no META partition: refused as upstream refuses it in container mode
  '/machine.MachineService/MetaWrite': async ({ machine }) => {
    const err = await errorOf(callUnary(machine, 'MetaWrite', { key: 0x0c, value: Buffer.from('x') }));
    expect(err.code).toBe(status.FAILED_PRECONDITION);
    expect(err.details).toBe('method is not supported in container mode');
  },
  '/machine.MachineService/MetaDelete': async ({ machine }) => {
    const err = await errorOf(callUnary(machine, 'MetaDelete', { key: 0x0c }));
    expect(err.code).toBe(status.FAILED_PRECONDITION);
    expect(err.details).toBe('method is not supported in container mode');
  },
  '/machine.MachineService/Reset': ({ machine }) =>
    unimplementedWithMessage(callUnary(machine, 'Reset', {}), /disk/),
  // a real reboot is container.test.ts's; POWERCYCLE reaches the handler and is refused without rebooting
  '/machine.MachineService/Reboot': ({ machine }) =>
    unimplementedWithMessage(callUnary(machine, 'Reboot', { mode: 'POWERCYCLE' }), /POWERCYCLE/),
  // nor containerd: the container RPCs say so, naming it, with upstream's Unavailable
  ...Object.fromEntries(
    (
      [
        ['/machine.MachineService/Containers', false, '0a0673797374656d'], // namespace "system"
        ['/machine.MachineService/ImageList', true, '0801'], // NS_SYSTEM
        ['/machine.ImageService/List', true, '0a0408011001'], // CRI driver, NS_SYSTEM
        ['/machine.ImageService/Pull', true, '0a0210011a0178'], // NS_SYSTEM, image "x"
      ] as const
    ).map(([path, responseStream, hex]) => [
      path,
      async ({ machine }: Clients) => {
        const o = await rawCall(
          machine,
          { path, requestStream: false, responseStream },
          Buffer.from(hex, 'hex'),
        );
        expect(o, path).toMatchObject({ ok: false, code: status.UNAVAILABLE });
        expect((o as { details: string }).details, path).toMatch(/error connecting to containerd/);
      },
    ]),
  ),
  // a debug session must open with its container's spec
  '/machine.DebugService/ContainerRun': async ({ machine }) => {
    const path = '/machine.DebugService/ContainerRun';
    const o = await rawCall(machine, { path, requestStream: true, responseStream: true }, Buffer.alloc(0));
    expect(o, path).toMatchObject({ ok: false, code: status.INVALID_ARGUMENT });
    expect((o as { details: string }).details, path).toMatch(/expected debug container spec/);
  },
  // a control plane without the etcd binary (this container node has no components layer) runs no etcd:
  // every etcd call says so with upstream's codes
  ...Object.fromEntries(
    (
      [
        ['Bootstrap', false, false, status.FAILED_PRECONDITION, /bootstrap is not available yet/],
        ['EtcdRecover', true, false, status.FAILED_PRECONDITION, /not ready for recovery/],
        ['EtcdSnapshot', false, true, status.UNAVAILABLE, /etcd is not configured on this node yet/],
        ...[
          'EtcdMemberList',
          'EtcdRemoveMemberByID',
          'EtcdLeaveCluster',
          'EtcdForfeitLeadership',
          'EtcdAlarmList',
          'EtcdAlarmDisarm',
          'EtcdDefragment',
          'EtcdStatus',
        ].map(
          (m) => [m, false, false, status.UNAVAILABLE, /etcd is not configured on this node yet/] as const,
        ),
      ] as [string, boolean, boolean, status, RegExp][]
    ).map(([name, requestStream, responseStream, code, re]) => [
      `/machine.MachineService/${name}`,
      async ({ machine }: Clients) => {
        const path = `/machine.MachineService/${name}`;
        const o = await rawCall(machine, { path, requestStream, responseStream }, Buffer.alloc(0));
        expect(o, path).toMatchObject({ ok: false, code });
        expect((o as { details: string }).details, path).toMatch(re);
      },
    ]),
  ),
};
const SHUTDOWN = '/machine.MachineService/Shutdown';

describe('every RPC against a container node over mutual TLS', () => {
  it('every handled RPC answers with well-formed content, Shutdown last', async () => {
    const handled = handledPaths();
    const declared = new Set(methodsOf().map((m) => m.path));
    // every handler is one the protos declare, and every one of them has a case here
    expect([...handled].filter((p) => !declared.has(p))).toEqual([]);
    expect([...handled].filter((p) => p !== SHUTDOWN && !(p in CASES))).toEqual([]);
    expect(handled.has(SHUTDOWN)).toBe(true);

    const node = await configuredNode();
    const creds = adminCreds();
    const c: Clients = {
      machine: client('machine.MachineService', node.address, creds),
      storage: client('storage.StorageService', node.address, creds),
      time: client('time.TimeService', node.address, creds),
      inspect: client('inspect.InspectService', node.address, creds),
      cluster: client('cluster.ClusterService', node.address, creds),
    };
    const done: string[] = [];
    for (const [path, call] of Object.entries(CASES)) {
      await call(c).catch((e: unknown) => {
        throw new Error(`${path}: ${(e as Error).message}`, { cause: e });
      });
      done.push(path);
    }
    expect(done).toHaveLength(Object.keys(CASES).length);

    const actor = first(await callUnary(c.machine, 'Shutdown', {})).actor_id;
    expect(String(actor)).not.toBe('');
    expect(await node.exited).toBe(0);
  });

  it('every RPC without a handler answers UNIMPLEMENTED with a message', async () => {
    const handled = handledPaths();
    const missing = methodsOf().filter((m) => !handled.has(m.path));
    expect(missing.length).toBeGreaterThan(0);

    const node = await configuredNode();
    const creds = adminCreds();
    const byService = new Map(SERVICES.map((s) => [s, client(s, node.address, creds)]));
    const wrong: string[] = [];
    for (const m of missing) {
      const outcome = await rawCall(
        byService.get(m.service as (typeof SERVICES)[number])!,
        m,
        Buffer.alloc(0),
      );
      if (outcome.ok || outcome.code !== status.UNIMPLEMENTED || !outcome.details.includes(m.name))
        wrong.push(`${m.path}: ${JSON.stringify(outcome)}`);
    }
    expect(wrong).toEqual([]);
    // the node is still serving after all of them
    await callUnary(byService.get('machine.MachineService')!, 'Version', {});
  });
});

describe('a failing API handler', () => {
  it('fails its own call with INTERNAL or UNKNOWN and leaves the process and the server serving', async () => {
    const uncaught = vi.fn();
    const unhandled = vi.fn();
    process.on('uncaughtException', uncaught);
    process.on('unhandledRejection', unhandled);
    try {
      const pki = await mintPKI();
      const handlers: HandlerMap = {
        // a handler that throws before returning a promise, one that rejects, one that fails mid-stream
        '/machine.MachineService/Hostname': {
          kind: 'unary',
          fn: (() => {
            throw new Error('hostname handler exploded');
          }) as Extract<HandlerMap[string], { kind: 'unary' }>['fn'],
        },
        '/machine.MachineService/Memory': unaryHandler(async () => {
          throw new TypeError('memory handler rejected');
        }),
        '/machine.MachineService/Logs': serverStreamHandler(async (_req, send) => {
          await send({ bytes: Buffer.from('one line\n') });
          throw new RangeError('logs handler failed mid-stream');
        }),
      };
      const server = await startApiServer({
        address: '127.0.0.1:0',
        mode: 'normal',
        state: await nodeState(),
        identity: { ca: pki.osCA.crt, server: pki.server },
        handlers,
      });
      servers.push(server);
      const m = client('machine.MachineService', server.address, mtls(pki.osCA.crt, pki.admin));
      const failures = [
        await errorOf(callUnary(m, 'Hostname', {})),
        await errorOf(callUnary(m, 'Memory', {})),
        await errorOf(callStream(m, 'Logs', { id: 'machined' })),
      ];
      for (const err of failures) {
        expect([status.INTERNAL, status.UNKNOWN]).toContain(err.code);
        expect(err.details).not.toBe('');
      }
      // the same server keeps answering
      const v = first(await callUnary(m, 'Version', {})).version as Reply;
      expect(String(v.tag)).not.toBe('');
      // let any stray rejection surface before the listeners are checked
      await new Promise(setImmediate);
      expect(uncaught).not.toHaveBeenCalled();
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('uncaughtException', uncaught);
      process.off('unhandledRejection', unhandled);
    }
  });
});
