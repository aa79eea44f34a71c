// A real containerd for tests: the pinned containerd, shim, ctr and runc (built once from their Go modules
// and cached), laid out as the components layer, run with the config Keel's controller writes, in a temp
// root. Test programs are static musl binaries; images are small OCI archives imported with ctr; CRI pods
// and containers are made through the CRI, with host networking (no CNI) and the default sandbox image
// imported locally, so nothing reaches a registry.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, credentials, Metadata } from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import {
  type ContainerdPaths,
  containerdConfig,
  containerdSocket,
} from '../../controllers/cri/containerd.js';
import { ContainerdClient } from '../../src/containerd/index.js';
import { componentDir } from '../etcd/fixtures.js';
import { ociArchive } from './oci-archive.js';

/** the CRI's default sandbox image: imported locally, the CRI never pulls it */
export const SANDBOX_IMAGE = 'registry.k8s.io/pause:3.10.2';

/** copyComponents lays containerd, its shim, ctr and runc out under `dir` as the layer has them. */
export function copyComponents(dir: string): void {
  mkdirSync(join(dir, 'usr/bin'), { recursive: true });
  for (const [c, bins] of [
    ['containerd', ['containerd', 'containerd-shim-runc-v2', 'ctr']],
    ['runc', ['runc']],
  ] as const)
    for (const b of bins) copyFileSync(join(componentDir(c), b), join(dir, 'usr/bin', b));
}

/** staticProgram compiles a C source into a static musl binary (a container's whole rootfs needs nothing else). */
export function staticProgram(work: string, name: string, source: string): Buffer {
  const src = join(work, `${name}.c`);
  writeFileSync(src, source);
  execFileSync('musl-gcc', ['-static', '-Os', '-o', join(work, name), src]);
  return readFileSync(join(work, name));
}

export const PAUSE_C = '#include <unistd.h>\nint main(void) { for (;;) pause(); }\n';
/** HELLO_C prints a numbered line every 200 ms, flushed, so its log grows while a test follows it. */
export const HELLO_C = `#include <stdio.h>
#include <unistd.h>
int main(void) { for (int i = 0;; i++) { printf("hello %d\\n", i); fflush(stdout); usleep(200000); } }
`;

export interface TestContainerd {
  readonly work: string;
  readonly socket: string;
  readonly components: string;
  /** ctr against this containerd */
  ctr(...args: string[]): string;
  /**
   * imports an OCI archive into a namespace; into k8s.io, resolves once the CRI has taken every image in
   * (it learns of imports from containerd's events, a moment later: a pod started before would pull)
   */
  importImage(namespace: string, archive: Buffer): Promise<void>;
  stop(): Promise<void>;
}

/** containerdPathsUnder: where a node keeps containerd's state, under `root`. */
export const containerdPathsUnder = (root: string): ContainerdPaths => ({
  root: join(root, 'var/lib/containerd'),
  state: join(root, 'run/containerd'),
  config: join(root, 'run/containerd'),
  cniConf: join(root, 'etc/cni/net.d'),
});

export async function startContainerd(): Promise<TestContainerd> {
  const work = mkdtempSync(join(tmpdir(), 'keel-containerd-'));
  const components = join(work, 'components');
  copyComponents(components);
  const paths = containerdPathsUnder(join(work, 'node'));
  mkdirSync(paths.config, { recursive: true });
  // a test host may refuse lowering oom_score_adj (the sandbox's -998), as Talos in a container does
  const restrictOom = "\n[plugins.'io.containerd.cri.v1.runtime']\n  restrict_oom_score_adj = true\n";
  writeFileSync(join(paths.config, 'config.toml'), containerdConfig(components, paths) + restrictOom);
  const bin = join(components, 'usr/bin');
  const proc: ChildProcess = spawn(join(bin, 'containerd'), ['--config', join(paths.config, 'config.toml')], {
    env: { PATH: `${bin}:/usr/bin:/usr/sbin:/bin:/sbin` },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  proc.stderr!.on('data', (b: Buffer) => {
    log = (log + b.toString()).slice(-8000);
  });
  const socket = containerdSocket(paths);
  const ctr = (...args: string[]) =>
    execFileSync(join(bin, 'ctr'), ['--address', socket, ...args], {
      encoding: 'utf8',
      env: { PATH: `${bin}:/usr/bin:/bin` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const stop = async () => {
    await removeEverything(socket, ctr);
    if (proc.exitCode === null && proc.signalCode === null) {
      const gone = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await gone;
    }
    unmountUnder(work);
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const probe = new ContainerdClient({ socket, timeoutMs: 2_000 });
    try {
      for (const deadline = Date.now() + 30_000; ; ) {
        if (proc.exitCode !== null) throw new Error(`containerd exited: ${log}`);
        if (
          await probe.images({ namespace: 'system' }).then(
            () => true,
            () => false,
          )
        )
          break;
        if (Date.now() > deadline) throw new Error(`containerd did not answer: ${log}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      probe.close();
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    work,
    socket,
    components,
    ctr,
    async importImage(namespace, archive) {
      const file = join(work, `import-${Date.now()}.tar`);
      writeFileSync(file, archive);
      ctr('-n', namespace, 'images', 'import', file);
      if (namespace !== 'k8s.io') return;
      for (const deadline = Date.now() + 30_000; ; ) {
        const rows = ctr('-n', namespace, 'images', 'ls').split('\n').slice(1).filter(Boolean);
        if (rows.every((r) => r.includes('io.cri-containerd.image=managed'))) return;
        if (Date.now() > deadline)
          throw new Error(`the CRI never took the imported images in:\n${rows.join('\n')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop,
  };
}

/** sandboxImage is the CRI's pause image, built from a static pause program. */
export function sandboxImage(work: string): Buffer {
  return ociArchive(
    SANDBOX_IMAGE,
    [{ path: 'pause', content: staticProgram(work, 'pause', PAUSE_C), mode: 0o755 }],
    ['/pause'],
  ).tar;
}

/** removeEverything stops and removes every container and pod this containerd runs, so none outlives it. */
export async function removeEverything(socket: string, ctr: (...a: string[]) => string): Promise<void> {
  const cri = new CriWriter(socket);
  try {
    for (const id of await cri.podIds().catch(() => [])) await cri.removePod(id).catch(() => {});
  } finally {
    cri.close();
  }
  for (const ns of ['system', 'k8s.io']) {
    let ids: string[] = [];
    try {
      ids = ctr('-n', ns, 'containers', 'ls', '-q').split('\n').filter(Boolean);
    } catch {
      continue;
    }
    for (const id of ids) {
      try {
        ctr('-n', ns, 'tasks', 'rm', '-f', id);
      } catch {}
      try {
        ctr('-n', ns, 'containers', 'rm', id);
      } catch {}
    }
  }
}

/** unmountUnder lazily unmounts whatever is still mounted below `dir` (rootfs, shm), deepest first. */
export function unmountUnder(dir: string): void {
  const mounts = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[4] ?? '')
    .filter((m) => m.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
  for (const m of mounts)
    try {
      execFileSync('umount', ['-l', m], { stdio: 'ignore' });
    } catch {}
}

// The CRI's write calls a test needs to make pods and containers; the client Keel ships only reads.
const CRI_WRITES = protobuf.Root.fromJSON({
  nested: {
    runtime: {
      nested: {
        v1: {
          nested: {
            NamespaceOption: { fields: { network: { type: 'int32', id: 1 } } },
            LinuxSandboxSecurityContext: {
              fields: { namespace_options: { type: 'NamespaceOption', id: 1 } },
            },
            LinuxPodSandboxConfig: {
              fields: { security_context: { type: 'LinuxSandboxSecurityContext', id: 2 } },
            },
            PodSandboxMetadata: {
              fields: {
                name: { type: 'string', id: 1 },
                uid: { type: 'string', id: 2 },
                namespace: { type: 'string', id: 3 },
              },
            },
            PodSandboxConfig: {
              fields: {
                metadata: { type: 'PodSandboxMetadata', id: 1 },
                hostname: { type: 'string', id: 2 },
                log_directory: { type: 'string', id: 3 },
                labels: { type: 'string', id: 6, keyType: 'string' },
                linux: { type: 'LinuxPodSandboxConfig', id: 8 },
              },
            },
            RunPodSandboxRequest: { fields: { config: { type: 'PodSandboxConfig', id: 1 } } },
            RunPodSandboxResponse: { fields: { pod_sandbox_id: { type: 'string', id: 1 } } },
            ContainerMetadata: { fields: { name: { type: 'string', id: 1 } } },
            ImageSpec: { fields: { image: { type: 'string', id: 1 } } },
            ContainerConfig: {
              fields: {
                metadata: { type: 'ContainerMetadata', id: 1 },
                image: { type: 'ImageSpec', id: 2 },
                command: { type: 'string', id: 3, rule: 'repeated' },
                labels: { type: 'string', id: 9, keyType: 'string' },
                log_path: { type: 'string', id: 11 },
              },
            },
            CreateContainerRequest: {
              fields: {
                pod_sandbox_id: { type: 'string', id: 1 },
                config: { type: 'ContainerConfig', id: 2 },
                sandbox_config: { type: 'PodSandboxConfig', id: 3 },
              },
            },
            CreateContainerResponse: { fields: { container_id: { type: 'string', id: 1 } } },
            StartContainerRequest: { fields: { container_id: { type: 'string', id: 1 } } },
            StartContainerResponse: { fields: {} },
            StopPodSandboxRequest: { fields: { pod_sandbox_id: { type: 'string', id: 1 } } },
            StopPodSandboxResponse: { fields: {} },
            RemovePodSandboxRequest: { fields: { pod_sandbox_id: { type: 'string', id: 1 } } },
            RemovePodSandboxResponse: { fields: {} },
            PodSandbox: { fields: { id: { type: 'string', id: 1 } } },
            ListPodSandboxRequest: { fields: {} },
            ListPodSandboxResponse: { fields: { items: { type: 'PodSandbox', id: 1, rule: 'repeated' } } },
          },
        },
      },
    },
  },
} as protobuf.INamespace);

/** CriWriter makes host-network pods and their containers through the CRI, as the kubelet would. */
export class CriWriter {
  readonly #client: Client;
  constructor(socket: string) {
    this.#client = new Client(`unix://${socket}`, credentials.createInsecure());
  }
  close(): void {
    this.#client.close();
  }

  #call(method: string, value: Record<string, unknown>): Promise<Record<string, unknown>> {
    const req = CRI_WRITES.lookupType(`runtime.v1.${method}Request`);
    const res = CRI_WRITES.lookupType(`runtime.v1.${method}Response`);
    return new Promise((resolve, reject) =>
      this.#client.makeUnaryRequest(
        `/runtime.v1.RuntimeService/${method}`,
        (v: Record<string, unknown>) => Buffer.from(req.encode(req.fromObject(v)).finish()),
        (b: Buffer) => res.toObject(res.decode(b), { defaults: true }),
        value,
        new Metadata(),
        { deadline: Date.now() + 60_000 },
        (err, r) => (err ? reject(err) : resolve(r as Record<string, unknown>)),
      ),
    );
  }

  /** runPod starts a pod sandbox on the host's network; its logs go under `logDir`. */
  async runPod(pod: { name: string; namespace: string; uid: string; logDir: string }) {
    const config = {
      metadata: { name: pod.name, uid: pod.uid, namespace: pod.namespace },
      log_directory: pod.logDir,
      labels: { 'io.kubernetes.pod.name': pod.name, 'io.kubernetes.pod.namespace': pod.namespace },
      linux: { security_context: { namespace_options: { network: 2 } } }, // NODE
    };
    const r = await this.#call('RunPodSandbox', { config });
    return { id: String(r.pod_sandbox_id), config };
  }

  /** runContainer creates and starts a container in a pod, labelled as the kubelet labels them. */
  async runContainer(
    pod: { id: string; config: { metadata: { name: string; namespace: string } } },
    name: string,
    image: string,
    command: string[],
  ): Promise<string> {
    const r = await this.#call('CreateContainer', {
      pod_sandbox_id: pod.id,
      sandbox_config: pod.config,
      config: {
        metadata: { name },
        image: { image },
        command,
        log_path: `${name}/0.log`,
        labels: {
          'io.kubernetes.pod.name': pod.config.metadata.name,
          'io.kubernetes.pod.namespace': pod.config.metadata.namespace,
          'io.kubernetes.container.name': name,
        },
      },
    });
    const id = String(r.container_id);
    await this.#call('StartContainer', { container_id: id });
    return id;
  }

  async podIds(): Promise<string[]> {
    const r = await this.#call('ListPodSandbox', {});
    return ((r.items as { id: string }[] | undefined) ?? []).map((p) => p.id);
  }

  async removePod(id: string): Promise<void> {
    await this.#call('StopPodSandbox', { pod_sandbox_id: id });
    await this.#call('RemovePodSandbox', { pod_sandbox_id: id });
  }
}
