// Containers, the CRI driver's Logs, ImageService.List and ImageList through a real mutual-TLS API server
// on a real containerd: a container run with ctr in `system`, a CRI pod and container in `k8s.io`, images
// imported from OCI archives; and Unavailable, naming containerd, when it does not run.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Client, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containersHandlers } from '../../../src/api/containers/index.js';
import { logsHandler } from '../../../src/api/machine-stateful/logs.js';
import { type ApiServer, startApiServer } from '../../../src/api/server.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import {
  CriWriter,
  HELLO_C,
  sandboxImage,
  startContainerd,
  staticProgram,
  type TestContainerd,
} from '../../containerd/fixtures.js';
import { type OciArchive, ociArchive } from '../../containerd/oci-archive.js';
import {
  callStream,
  callUnary,
  errorOf,
  mintPKI,
  mtls,
  type Reply,
  serviceClient,
  type TestPKI,
  takeStream,
} from '../fixtures.js';

let pki: TestPKI;
let ctd: TestContainerd;
let server: ApiServer;
let down: ApiServer;
let machine: Client;
let images: Client;
let downMachine: Client;
let hello: OciArchive;
let podId: string;
let criId: string;

const noRings = { ids: () => [], find: () => undefined };
const serve = (socket: string) =>
  startApiServer({
    address: '127.0.0.1:0',
    mode: 'normal',
    state: wrapCore(newInmemState()),
    identity: { ca: pki.osCA.crt, server: pki.server },
    handlers: {
      ...containersHandlers({ socket }),
      '/machine.MachineService/Logs': logsHandler(noRings, { socket }),
    },
  });

beforeAll(async () => {
  pki = await mintPKI();
  ctd = await startContainerd();
  const program = staticProgram(ctd.work, 'hello', HELLO_C);
  hello = ociArchive(
    'docker.io/keel/hello:1',
    [{ path: 'hello', content: program, mode: 0o755 }],
    ['/hello'],
  );
  await ctd.importImage('system', hello.tar);
  await ctd.importImage('k8s.io', hello.tar);
  await ctd.importImage('k8s.io', sandboxImage(ctd.work));
  ctd.ctr('-n', 'system', 'run', '-d', 'docker.io/keel/hello:1', 'hello-system');
  const writer = new CriWriter(ctd.socket);
  try {
    const logDir = join(ctd.work, 'pods');
    mkdirSync(logDir);
    const pod = await writer.runPod({ name: 'web', namespace: 'default', uid: 'uid-1', logDir });
    podId = pod.id;
    criId = await writer.runContainer(pod, 'hello', 'docker.io/keel/hello:1', ['/hello']);
  } finally {
    writer.close();
  }
  server = await serve(ctd.socket);
  down = await serve(join(ctd.work, 'absent.sock'));
  const creds = mtls(pki.osCA.crt, pki.reader);
  machine = serviceClient('machine.MachineService', server.address, creds);
  images = serviceClient('machine.ImageService', server.address, creds);
  downMachine = serviceClient('machine.MachineService', down.address, creds);
}, 300_000);

afterAll(async () => {
  for (const c of [machine, images, downMachine]) c?.close();
  await server?.close({ signal: AbortSignal.timeout(5_000) });
  await down?.close({ signal: AbortSignal.timeout(5_000) });
  await ctd?.stop();
}, 60_000);

const containers = async (c: Client, namespace: string, driver: string) =>
  ((await callUnary(c, 'Containers', { namespace, driver })).messages as Reply[])[0]!.containers as Reply[];
const text = (msgs: Reply[]) => Buffer.concat(msgs.map((m) => m.bytes as Buffer)).toString();

describe('Containers', () => {
  it('containerd driver: the running container of `system`, its image by name', async () => {
    const [c, ...rest] = await containers(machine, 'system', 'CONTAINERD');
    expect(rest).toEqual([]);
    expect(c).toMatchObject({
      namespace: 'system',
      id: 'hello-system',
      internal_id: 'hello-system',
      name: 'hello-system',
      pod_id: 'hello-system',
      image: 'docker.io/keel/hello:1',
      status: 'RUNNING',
      uid: '',
    });
    expect(c!.pid).toBeGreaterThan(1);
  });

  it('CRI driver: the pod sandbox, then its container, as upstream names them', async () => {
    const [sandbox, container, ...rest] = await containers(machine, 'k8s.io', 'CRI');
    expect(rest).toEqual([]);
    expect(sandbox).toMatchObject({
      namespace: 'k8s.io',
      id: 'default/web',
      internal_id: podId,
      name: 'default/web',
      pod_id: 'default/web',
      uid: 'uid-1',
      image: 'registry.k8s.io/pause:3.10.2',
      status: 'SANDBOX_READY',
    });
    expect(sandbox!.pid).toBeGreaterThan(1);
    expect(container).toMatchObject({
      id: `default/web:hello:${criId.slice(0, 12)}`,
      internal_id: criId,
      name: 'hello',
      pod_id: 'default/web',
      image: 'docker.io/keel/hello:1',
      status: 'CONTAINER_RUNNING',
    });
    expect(container!.pid).toBeGreaterThan(1);
  });

  it('refuses what upstream refuses: an empty namespace, CRI outside k8s.io', async () => {
    expect((await errorOf(containers(machine, '', 'CONTAINERD'))).code).toBe(status.INVALID_ARGUMENT);
    const e = await errorOf(containers(machine, 'system', 'CRI'));
    expect(e.details).toContain('CRI inspector is supported only for K8s namespace');
  });

  it('answers Unavailable, naming containerd, when it does not run', async () => {
    for (const [ns, driver] of [
      ['system', 'CONTAINERD'],
      ['k8s.io', 'CRI'],
    ] as const) {
      const e = await errorOf(containers(downMachine, ns, driver));
      expect(e.code).toBe(status.UNAVAILABLE);
      expect(e.details).toContain('error connecting to containerd');
    }
  });
});

describe('Logs -k', () => {
  const logs = (req: object) => callStream(machine, 'Logs', { namespace: 'k8s.io', driver: 'CRI', ...req });

  it('reads the CRI log file: all of it, or its last lines', async () => {
    const all = text(await logs({ id: `default/web:hello`, tail_lines: -1 }));
    expect(all).toMatch(/^\S+ stdout F hello 0\n/);
    const two = text(await logs({ id: `default/web:hello:${criId.slice(0, 12)}`, tail_lines: 2 }));
    expect(two.split('\n').filter(Boolean)).toHaveLength(2);
    expect(two).toMatch(/stdout F hello \d+\n$/);
    expect(text(await logs({ id: 'default/web:hello', tail_lines: 0 }))).toBe('');
  });

  it('follows what the container writes next', async () => {
    const got = await takeStream(
      machine,
      'Logs',
      { namespace: 'k8s.io', driver: 'CRI', id: 'default/web:hello', tail_lines: 0, follow: true },
      2,
    );
    expect(text(got)).toMatch(/stdout F hello \d+\n/);
  });

  it('NotFound for a container that is not there; Unavailable without containerd', async () => {
    expect((await errorOf(logs({ id: 'default/web:nope' }))).code).toBe(status.NOT_FOUND);
    expect((await errorOf(logs({ id: 'plain' }))).code).toBe(status.NOT_FOUND);
    const e = await errorOf(
      callStream(downMachine, 'Logs', { namespace: 'k8s.io', driver: 'CRI', id: 'a/b:c' }),
    );
    expect(e.code).toBe(status.UNAVAILABLE);
  });
});

describe('image lists', () => {
  it('ImageService.List: each namespace with name, digest, size and creation time', async () => {
    const sys = await callStream(images, 'List', { containerd: { driver: 'CRI', namespace: 'NS_SYSTEM' } });
    expect(sys.map((i) => i.name)).toEqual(['docker.io/keel/hello:1']);
    expect(sys[0]).toMatchObject({ digest: hello.manifestDigest, size: String(hello.size) });
    expect(Number((sys[0]!.created_at as Reply).seconds)).toBeGreaterThan(Date.now() / 1000 - 600);
    const cri = await callStream(images, 'List', { containerd: { driver: 'CRI', namespace: 'NS_CRI' } });
    expect(cri.map((i) => i.name)).toEqual(
      expect.arrayContaining(['docker.io/keel/hello:1', 'registry.k8s.io/pause:3.10.2']),
    );
    // labels on the wire (field 5): the CRI marks the images it has taken in as its own
    expect(cri.find((i) => i.name === 'docker.io/keel/hello:1')?.labels).toEqual({
      'io.cri-containerd.image': 'managed',
    });
  });

  it('ImageService.List refuses an unknown namespace and CRI with the containerd driver', async () => {
    const unknown = await errorOf(callStream(images, 'List', { containerd: { driver: 'CRI' } }));
    expect(unknown.code).toBe(status.INVALID_ARGUMENT);
    expect(unknown.details).toBe('invalid containerd namespace NS_UNKNOWN');
    const mixed = await errorOf(
      callStream(images, 'List', { containerd: { driver: 'CONTAINERD', namespace: 'NS_CRI' } }),
    );
    expect(mixed.details).toBe('cannot use CRI namespace with containerd driver');
  });

  it('MachineService.ImageList (deprecated) answers the same, in its envelope', async () => {
    const sys = await callStream(machine, 'ImageList', { namespace: 'NS_SYSTEM' });
    expect(sys.map((i) => [i.name, i.digest, i.size])).toEqual([
      ['docker.io/keel/hello:1', hello.manifestDigest, String(hello.size)],
    ]);
    const e = await errorOf(callStream(downMachine, 'ImageList', { namespace: 'NS_SYSTEM' }));
    expect(e.code).toBe(status.UNAVAILABLE);
    expect(e.details).toContain('error connecting to containerd');
  });
});
