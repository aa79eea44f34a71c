// The containerd and CRI clients against a real containerd: a container run with ctr in `system`, a CRI
// pod and container in `k8s.io`, images imported from OCI archives, and a missing socket.
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ContainerdClient,
  ContainerdError,
  CriClient,
  imageSize,
  isContainerdDown,
  platformOfArch,
} from '../../src/containerd/index.js';
import {
  CriWriter,
  HELLO_C,
  sandboxImage,
  startContainerd,
  staticProgram,
  type TestContainerd,
} from './fixtures.js';
import { ociArchive } from './oci-archive.js';

let ctd: TestContainerd;
let client: ContainerdClient;
let cri: CriClient;
let hello: ReturnType<typeof ociArchive>;
let podId: string;
let criContainerId: string;
const signal = () => AbortSignal.timeout(20_000);

beforeAll(async () => {
  ctd = await startContainerd();
  client = new ContainerdClient({ socket: ctd.socket });
  cri = new CriClient({ socket: ctd.socket });
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
    const pod = await writer.runPod({
      name: 'web',
      namespace: 'default',
      uid: 'uid-1',
      logDir: join(ctd.work, 'pods'),
    });
    podId = pod.id;
    criContainerId = await writer.runContainer(pod, 'hello', 'docker.io/keel/hello:1', ['/hello']);
  } finally {
    writer.close();
  }
}, 300_000);

afterAll(async () => {
  client?.close();
  cri?.close();
  await ctd?.stop();
}, 60_000);

describe('ContainerdClient', () => {
  it('lists the containers and running tasks of a namespace', async () => {
    const containers = await client.containers({ namespace: 'system', signal: signal() });
    expect(containers.map((c) => [c.id, c.image])).toEqual([['hello-system', 'docker.io/keel/hello:1']]);
    const tasks = await client.tasks({ namespace: 'system', signal: signal() });
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ containerId: 'hello-system', status: 'RUNNING' });
    expect(tasks[0]!.pid).toBeGreaterThan(1);
  });

  it('lists images, and sizes one as containerd does (manifest, config, layer)', async () => {
    const images = await client.images({ namespace: 'system', signal: signal() });
    const img = images.find((i) => i.name === 'docker.io/keel/hello:1');
    expect(img?.target.digest).toBe(hello.manifestDigest);
    expect(img?.createdAt?.getTime()).toBeGreaterThan(Date.now() - 600_000);
    const read = (d: string) => client.readBlob(d, { namespace: 'system', signal: signal() });
    expect(await imageSize(img!.target, read, platformOfArch(process.arch))).toBe(hello.size);
    const info = await client.info(hello.manifestDigest, { namespace: 'system', signal: signal() });
    expect(info.size).toBe(img!.target.size);
  });

  it('keeps containerd’s code: NOT_FOUND for a missing blob', async () => {
    const e = await client.info(`sha256:${'0'.repeat(64)}`, { namespace: 'system' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ContainerdError);
    expect((e as ContainerdError).code).toBe(status.NOT_FOUND);
  });

  it('refuses a namespace containerd would refuse, with its code, before calling it', async () => {
    for (const bad of ['$K', 'a\nb', 'x'.repeat(77), 'a..b', '']) {
      const e = await client
        .containers({ namespace: `${bad}z` === 'z' ? '-' : bad })
        .catch((x: unknown) => x);
      expect(e, JSON.stringify(bad)).toBeInstanceOf(ContainerdError);
      expect((e as ContainerdError).code).toBe(status.INVALID_ARGUMENT);
      expect((e as Error).message).toMatch(/^namespace ".*": .*: invalid argument$/s);
    }
    // the longest name it takes, and one of each separator
    expect(await client.containers({ namespace: `a.b_c-${'d'.repeat(70)}` })).toEqual([]);
  });

  it('answers Unavailable when nothing listens on the socket, and honours an aborted signal', async () => {
    const none = new ContainerdClient({ socket: join(ctd.work, 'none.sock'), timeoutMs: 2_000 });
    try {
      const e = await none.containers({ namespace: 'system' }).catch((x: unknown) => x);
      expect(isContainerdDown(e)).toBe(true);
      expect(String((e as Error).message)).toContain('none.sock');
      const aborted = await client
        .containers({ namespace: 'system', signal: AbortSignal.abort() })
        .catch((x: unknown) => x);
      expect(aborted).toBeInstanceOf(Error);
    } finally {
      none.close();
    }
  });
});

describe('CriClient', () => {
  it('lists ready pod sandboxes and their verbose status', async () => {
    const pods = await cri.listPodSandbox({ readyOnly: true }, { signal: signal() });
    expect(pods.map((p) => [p.id, p.namespace, p.name, p.uid, p.state])).toEqual([
      [podId, 'default', 'web', 'uid-1', 'SANDBOX_READY'],
    ]);
    const st = await cri.podSandboxStatus(podId, { signal: signal() });
    expect(JSON.parse(st.info.info!).pid).toBeGreaterThan(1);
  });

  it('lists containers, filtered by labels, with their log path and pid', async () => {
    const all = await cri.listContainers({}, { signal: signal() });
    expect(all.map((c) => [c.id, c.podSandboxId, c.name, c.state])).toEqual([
      [criContainerId, podId, 'hello', 'CONTAINER_RUNNING'],
    ]);
    const none = await cri.listContainers({ labels: { 'io.kubernetes.container.name': 'other' } }, {});
    expect(none).toEqual([]);
    const st = await cri.containerStatus(criContainerId, { signal: signal() });
    expect(st.logPath).toBe(join(ctd.work, 'pods', 'hello/0.log'));
    expect(JSON.parse(st.info.info!).pid).toBeGreaterThan(1);
    const images = await cri.listImages({ signal: signal() });
    expect(images.flatMap((i) => i.repoTags)).toContain('docker.io/keel/hello:1');
  });
});
