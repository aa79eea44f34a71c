// Shared fixtures for keelctl's tests: real API servers over mTLS on loopback with a real state, a temp
// talosconfig pointing at them, and keelctl run as a child process.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { HostnameStatus } from '../../resources/network/hostname-status.js';
import { MachineStatus } from '../../resources/runtime/machine-status.js';
import type { HandlerMap } from '../../src/api/handlers.js';
import { type ApiServer, startApiServer } from '../../src/api/server.js';
import { encodeTalosconfig, newTalosconfig } from '../../src/config/generate/talosconfig.js';
import { registerDefault, registerNamespace, registerResource } from '../../src/cosi/resource/meta/index.js';
import { defineResource } from '../../src/cosi/resource/typed.js';
import type { CoreState } from '../../src/cosi/state/core.js';
import { newInmemState } from '../../src/cosi/state/inmem/index.js';
import type { State } from '../../src/cosi/state/state.js';
import { wrapCore } from '../../src/cosi/state/wrap.js';
import { mintPKI, type TestPKI } from '../api/fixtures.js';

/** Its capitals give it the aliases `ms` and `mss`, as MachineStatus's do: `get ms` is ambiguous. */
export const MemberStats = defineResource<{ count: number }>({
  type: 'MemberStats.test.keel.dev',
  defaultNamespace: 'runtime',
  empty: () => ({ count: 0 }),
  proto: { count: { no: 1, kind: 'int64' } },
  fromProto: (v) => ({ count: Number(v.count ?? 0) }),
});

/** A port nothing listens on: connecting is refused at once. */
export const UNREACHABLE = '127.0.0.1:1';

export interface TestNode {
  readonly server: ApiServer;
  readonly core: CoreState;
  readonly state: State;
}

/** testState registers the namespaces and types the tests read, and a machine status and hostname. */
export async function testState(hostname: string): Promise<{ core: CoreState; state: State }> {
  const core = newInmemState();
  const state = wrapCore(core);
  await registerDefault(state);
  await registerNamespace(state, 'runtime', 'runtime resources');
  await registerNamespace(state, 'network', 'network resources');
  for (const t of [MachineStatus, HostnameStatus, MemberStats]) await registerResource(state, t);
  await state.create(
    MachineStatus.new('runtime', 'machine', {
      stage: 'running',
      status: { ready: true, unmetConditions: [] },
    }),
  );
  await state.create(HostnameStatus.new('network', 'hostname', { hostname, domainname: 'example.org' }));
  return { core, state };
}

let shared: Promise<TestPKI> | undefined;
/** pki is minted once per test file: certificates are slow to make and the tests never change them. */
export const pki = (): Promise<TestPKI> => {
  shared ??= mintPKI();
  return shared;
};

/** startNode runs a normal-mode node that can forward to others (it holds a proxy certificate). */
export async function startNode(hostname: string, handlers: HandlerMap = {}): Promise<TestNode> {
  const p = await pki();
  const { core, state } = await testState(hostname);
  const server = await startApiServer({
    address: '127.0.0.1:0',
    mode: 'normal',
    state: core,
    identity: { ca: p.osCA.crt, server: p.server, client: p.impersonator },
    handlers,
  });
  return { server, core, state };
}

/** startMaintenanceNode runs a node in maintenance mode: TLS without client certificates. */
export async function startMaintenanceNode(handlers: HandlerMap = {}): Promise<TestNode> {
  const { core, state } = await testState('maintenance');
  const server = await startApiServer({ address: '127.0.0.1:0', mode: 'maintenance', state: core, handlers });
  return { server, core, state };
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

export interface Workdir {
  readonly dir: string;
  readonly talosconfig: string;
  remove(): void;
}

/** workdir is a temp directory holding a talosconfig whose one context targets `endpoint` and `nodes`. */
export async function workdir(endpoint: string, nodes: readonly string[] = [endpoint]): Promise<Workdir> {
  const p = await pki();
  const dir = mkdtempSync(join(tmpdir(), 'keelctl-'));
  const cfg = newTalosconfig({
    clusterName: 'test',
    osCACrt: b64(p.osCA.crt),
    admin: { crt: b64(p.admin.crt), key: b64(p.admin.key) },
    endpoints: [endpoint],
  });
  cfg.contexts.test!.nodes = [...nodes];
  const talosconfig = join(dir, 'talosconfig');
  writeFileSync(talosconfig, encodeTalosconfig(cfg));
  return { dir, talosconfig, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');

/** Child is a running keelctl: its output so far, a way to wait for some, and a way to stop it with Ctrl-C. */
export interface Child {
  /** waitFor resolves once stdout satisfies `done`, or rejects when the process ends first */
  waitFor(done: (stdout: string) => boolean): Promise<string>;
  interrupt(): void;
  readonly exited: Promise<Run>;
  kill(): void;
}

/**
 * keelctl starts keelctl with `args`, reading `talosconfig` from the environment as talosctl does. Call it
 * inside a test: the process is killed and reaped when the test ends, passed or failed.
 */
export function keelctl(args: readonly string[], env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    env: { ...process.env, TZ: 'UTC', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    for (const w of waiters) w();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const exited = new Promise<Run>((resolve) =>
    child.on('close', (code) => {
      for (const w of waiters) w();
      resolve({ code, stdout, stderr });
    }),
  );
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  onTestFinished(async () => {
    kill();
    await exited;
  });
  return {
    waitFor: (done) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (done(stdout)) {
            waiters.delete(check);
            resolve(stdout);
          } else if (ended || child.exitCode !== null) {
            waiters.delete(check);
            reject(
              new Error(`keelctl ended (${child.exitCode}) before the output came:\n${stdout}\n${stderr}`),
            );
          }
        };
        waiters.add(check);
        check();
      }),
    interrupt: () => child.kill('SIGINT'),
    exited,
    kill,
  };
}

/** run runs keelctl to its end. */
export const run = (args: readonly string[], env: Record<string, string> = {}): Promise<Run> =>
  keelctl(args, env).exited;

/** rfc3339 is a timestamp as Go's RFC3339 prints it in UTC: seconds, then Z. */
export const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
