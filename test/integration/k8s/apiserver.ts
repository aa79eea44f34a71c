// A real kube-apiserver for tests: the binary from the Kubernetes component's build, run with the
// arguments Keel's static pod gives it (its files moved under a temporary root, etcd and the port the
// test's), until it serves the admin kubeconfig the kube-system namespace.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { KubeClient } from '../../../src/k8s/index.js';
import { componentDir } from '../../etcd/fixtures.js';

export interface RunningAPIServer {
  readonly process: ChildProcess;
  log(): string;
  stop(): Promise<void>;
}

export interface APIServerOptions {
  /** the static pod's command (the binary first, then its flags) */
  readonly command: readonly string[];
  /** where the pod's /system and /var paths live on the host */
  readonly root: string;
  /** flags replaced or added (`etcd-servers`, `bind-address`, …) */
  readonly overrides: Readonly<Record<string, string>>;
  /** the kubeconfig to ask whether it is up with */
  readonly kubeconfig: string;
  readonly timeoutMs?: number;
}

/** hostArgs moves each flag's pod path under root and applies the overrides. */
export function hostArgs(
  command: readonly string[],
  root: string,
  overrides: Readonly<Record<string, string>>,
) {
  const flags = new Map<string, string>();
  for (const a of command.slice(1)) {
    const m = /^--([^=]+)=(.*)$/s.exec(a);
    if (!m) continue;
    const v = m[2]!;
    flags.set(m[1]!, /^\/(system|var)\//.test(v) ? join(root, v) : v);
  }
  for (const [k, v] of Object.entries(overrides)) flags.set(k, v);
  return [...flags].map(([k, v]) => `--${k}=${v}`);
}

export async function startAPIServer(o: APIServerOptions): Promise<RunningAPIServer> {
  const bin = join(componentDir('kubernetes'), 'kube-apiserver');
  const proc = spawn(bin, hostArgs(o.command, o.root, o.overrides), { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr!.on('data', (b: Buffer) => {
    log = (log + b.toString()).slice(-16_000);
  });
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      const gone = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await gone;
    }
  };
  const client = KubeClient.fromKubeconfig(o.kubeconfig, { timeoutMs: 5_000 });
  try {
    const deadline = Date.now() + (o.timeoutMs ?? 90_000);
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`kube-apiserver exited ${proc.exitCode}: ${log}`);
      try {
        // JSON, unlike /readyz; and there once the server's own controllers have run
        await client.get('/api/v1/namespaces/kube-system');
        break;
      } catch (e) {
        if (Date.now() > deadline)
          throw new Error(`kube-apiserver not ready: ${(e as Error).message}\n${log}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  } catch (e) {
    await stop();
    throw e;
  } finally {
    client.close();
  }
  return { process: proc, log: () => log, stop };
}
