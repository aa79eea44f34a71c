// What the end-to-end tests need around a VM: the built artefacts, gRPC clients over the forwarded port,
// and retries while the node's API comes and goes (boot, leaving maintenance, reboot).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChannelCredentials, type Client, credentials } from '@grpc/grpc-js';
import { expect } from 'vitest';
import { startVm, type Vm, type VmOptions } from '../../scripts/lib/qemu.js';
import type { Config } from '../../src/config/index.js';
import { callUnary, type Reply, serviceClient } from '../api/fixtures.js';
import type { Run } from '../integration/talosctl/talosctl.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const OUT = join(ROOT, '_out');

/** artefact is a built image file; the message says how to build it instead of a bare ENOENT. */
export function artefact(name: string): string {
  const p = join(OUT, name);
  if (!existsSync(p)) throw new Error(`${p} is missing: build the images first with \`make image\``);
  return p;
}

const vms: Vm[] = [];
const clients: Client[] = [];

/** boot starts a VM that cleanup() kills, whatever the test did. */
export function boot(opts: VmOptions): Vm {
  const vm = startVm(opts);
  vms.push(vm);
  return vm;
}

export async function cleanup(): Promise<void> {
  for (const c of clients.splice(0)) c.close();
  for (const vm of vms.splice(0)) {
    vm.kill();
    await vm.ended;
  }
}

/** anonymous is TLS without a client certificate, trusting anything: what maintenance mode takes. */
export const anonymous = (): ChannelCredentials =>
  credentials.createSsl(null, null, null, {
    rejectUnauthorized: false,
    checkServerIdentity: () => undefined,
  });

export function client(service: string, port: number, creds: ChannelCredentials): Client {
  const c = serviceClient(service, `127.0.0.1:${port}`, creds);
  clients.push(c);
  return c;
}

/** retry calls until it succeeds: the forwarded port accepts before the node listens behind it. */
export async function retry<T>(what: string, fn: () => Promise<T>, timeoutMs = 240_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      return await fn();
    } catch (e) {
      last = e;
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
  throw new Error(`${what}: still failing after ${timeoutMs} ms: ${(last as Error)?.message}`);
}

/** version asks machine.MachineService/Version once, with a deadline. */
export async function version(port: number, creds: ChannelCredentials): Promise<Reply> {
  const m = client('machine.MachineService', port, creds);
  const deadline = new Date(Date.now() + 10_000);
  try {
    const reply = await new Promise<Reply>((resolve, reject) => {
      (m as unknown as { Version: Function }).Version({}, { deadline }, (err: Error | null, r: Reply) =>
        err ? reject(err) : resolve(r),
      );
    });
    return (reply.messages as Reply[])[0]!;
  } finally {
    // also after a failure: a channel left open keeps reconnecting, and pollers call this every 100 ms,
    // so a booting node would meet dozens of TLS handshakes at once the moment it starts listening
    m.close();
  }
}

export { callUnary };

/** withMachine merges `fields` into the machine section of the config's v1alpha1 document. */
export function withMachine(cfg: Config, fields: Record<string, unknown>): Config {
  return {
    documents: cfg.documents.map((d) => {
      if (d.kind !== 'v1alpha1') return d;
      const spec = d.spec as { machine?: Record<string, unknown> };
      return { ...d, spec: { ...spec, machine: { ...spec.machine, ...fields } } } as typeof d;
    }),
  };
}

/**
 * installing names the install disk and lets time sync give up soon (QEMU's network has no NTP server,
 * and readiness waits for a synced clock or the boot timeout).
 */
export const installing = (cfg: Config, disk: string): Config =>
  withMachine(cfg, { install: { disk }, time: { bootTimeout: '5s' } });

/** works checks a talosctl run succeeded without a wire error and gives its stdout. */
export function works(r: Run): string {
  expect(r.timedOut, r.output).toBe(false);
  expect(r.code, r.output).toBe(0);
  expect(r.stderr, r.output).not.toMatch(/rpc error|unmarshal|panic/i);
  return r.stdout;
}

/** rowOf finds the table row of resource `id` of `type` (the TYPE column just before it). */
export function rowOf(out: string, type: string, id: string): string {
  const line = out.split('\n').find((l) => new RegExp(`\\s${type}\\s+${id}\\s`).test(l));
  expect(line, out).toBeDefined();
  return line!;
}

/** Talosctl runs the stock talosctl against one node of a VM, as its admin. */
export type Talosctl = (...args: string[]) => Promise<Run>;

/**
 * bootstrap runs `talosctl bootstrap` until the node takes it: until its etcd is configured (the layer
 * mounted, the certificates minted) and its clock counts as synced, a control plane refuses it with
 * FailedPrecondition, which is the node still booting, not a failure.
 */
export async function bootstrap(tc: Talosctl, timeoutMs = 300_000): Promise<void> {
  await retry(
    'talosctl bootstrap',
    async () => {
      const r = await tc('bootstrap');
      expect(r.code, r.output).toBe(0);
    },
    timeoutMs,
  );
}

/**
 * etcdHealthy waits for `talosctl service etcd` to say Running and healthy. On TCG etcd takes its time:
 * its first health check comes 5 s after it starts, the next ones every 20 s.
 */
export async function etcdHealthy(tc: Talosctl, timeoutMs = 300_000): Promise<string> {
  return retry(
    'etcd running and healthy',
    async () => {
      const out = works(await tc('service', 'etcd'));
      expect(out).toMatch(/^STATE\s+Running$/m);
      expect(out).toMatch(/^HEALTH\s+OK$/m);
      return out;
    },
    timeoutMs,
  );
}
