// The stateful RPCs through a real normal-mode API server (mutual TLS), on machined's real events bus,
// services supervisor, log rings, sequencer and the node's config host.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Client, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONFIG_NAMESPACE,
  MACHINE_CONFIG_ID,
  MachineConfig,
  registerConfigResources,
} from '../../../resources/config/index.js';
import { systemInfoHandlers } from '../../../src/api/machine/index.js';
import { statefulHandlers } from '../../../src/api/machine-stateful/index.js';
import { type ApiServer, startApiServer } from '../../../src/api/server.js';
import {
  type Config,
  decodeTalosconfig,
  encode,
  generateConfigs,
  mintSecrets,
  v1alpha1Of,
} from '../../../src/config/index.js';
import { registerDefault, registerNamespace } from '../../../src/cosi/resource/meta/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import type { State } from '../../../src/cosi/state/state.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { EventBus, newXidSource } from '../../../src/machined/events/index.js';
import { LoggingManager } from '../../../src/machined/logging/index.js';
import { clientIssuer, type NodeConfigHost, nodeConfigHost } from '../../../src/machined/node/index.js';
import { defaultSequences, Sequencer } from '../../../src/machined/sequencer/index.js';
import { inProcessRunner, Supervisor } from '../../../src/machined/services/index.js';
import { parseCertificate } from '../../../src/pki/index.js';
import {
  callStream,
  callUnary,
  errorOf,
  mintPKI,
  mtls,
  type Reply,
  serviceClient,
  type TestPKI,
} from '../fixtures.js';

let pki: TestPKI;
let server: ApiServer;
let state: State;
let host: NodeConfigHost;
let base: Config;
let stateDir: string;
let machine: Client;
let reader: Client;
let cluster: Client;
let supervisor: Supervisor;

beforeAll(async () => {
  pki = await mintPKI();
  const secrets = await mintSecrets();
  base = generateConfigs({ clusterName: 'c', endpoint: 'https://10.5.0.2:6443', secrets }).controlplane;
  stateDir = mkdtempSync(join(tmpdir(), 'keel-stateful-'));
  state = wrapCore(newInmemState());
  await registerDefault(state);
  await registerNamespace(state, CONFIG_NAMESPACE, 'config');
  await registerConfigResources(state);

  const events = new EventBus();
  const xids = newXidSource();
  const logs = new LoggingManager();
  supervisor = new Supervisor({ events, logs });
  supervisor.load({
    id: 'echo',
    apiControl: true,
    runner: () =>
      inProcessRunner('echo', async ({ signal, log }) => {
        log.write('hello from echo\n');
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      }),
  });
  // a system service the node needs: the service RPCs must not stop it (upstream's API*Allowed)
  supervisor.load({
    id: 'system',
    runner: () =>
      inProcessRunner(
        'system',
        ({ signal }) => new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true })),
      ),
  });
  supervisor.start('echo', 'system');
  const sequencer = new Sequencer({ events, sequences: defaultSequences({ services: supervisor }) });
  const run = (seq: 'reboot' | 'shutdown') => (actorId: string) => {
    void sequencer.run(seq, { actorId }).catch(() => {});
  };
  host = nodeConfigHost({
    state,
    stateDir,
    validationMode: 'container',
    initial: base,
    reboot: run('reboot'),
    log: () => {},
  });
  await host.activate(base);
  server = await startApiServer({
    address: '127.0.0.1:0',
    mode: 'normal',
    state,
    identity: { ca: pki.osCA.crt, server: pki.server },
    handlers: {
      ...systemInfoHandlers(),
      ...statefulHandlers({
        config: host,
        events: { watch: (o) => events.watch(o), newId: () => xids.next(Date.now()) },
        services: supervisor,
        logs,
        power: { reboot: run('reboot'), shutdown: run('shutdown') },
        clients: clientIssuer(host, () => ['127.0.0.1']),
      }),
    },
  });
  machine = serviceClient('machine.MachineService', server.address, mtls(pki.osCA.crt, pki.admin));
  reader = serviceClient('machine.MachineService', server.address, mtls(pki.osCA.crt, pki.reader));
  cluster = serviceClient('cluster.ClusterService', server.address, mtls(pki.osCA.crt, pki.admin));
  await supervisor.waitFor(['echo', 'system'], { signal: AbortSignal.timeout(10_000) });
});

afterAll(async () => {
  for (const c of [machine, reader, cluster]) c?.close();
  host?.close();
  await supervisor?.stopAll({});
  await server?.close({ signal: AbortSignal.timeout(5_000) });
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

const apply = (cfg: Config, extra: object = {}, c = machine) =>
  callUnary(c, 'ApplyConfiguration', { data: Buffer.from(encode(cfg)), ...extra });
const first = (r: Reply) => (r.messages as Reply[])[0]!;
const withSANs = (sans: string[]): Config => {
  const docs = structuredClone(base.documents);
  (docs.find((d) => d.kind === 'v1alpha1')!.spec as { machine: { certSANs: string[] } }).machine.certSANs =
    sans;
  return { documents: docs } as Config;
};
const activeSANs = async () => {
  const r = await state.get(MachineConfig.pointer(MACHINE_CONFIG_ID));
  return v1alpha1Of((r as MachineConfig).spec as Config)?.machine?.certSANs;
};

/** openStream reads a server stream until `done` holds for what arrived, then cancels it. */
function takeStream(
  method: string,
  req: object,
  done: (msgs: Reply[]) => boolean,
  c = machine,
): Promise<Reply[]> {
  return new Promise((resolve, reject) => {
    const call = (c as unknown as Record<string, (r: object) => NodeJS.EventEmitter & { cancel(): void }>)[
      method
    ]!.call(c, req);
    const out: Reply[] = [];
    call.on('data', (m: Reply) => {
      out.push(m);
      if (done(out)) {
        call.cancel();
        resolve(out);
      }
    });
    call.on('error', (e: { code?: number }) => {
      if (e.code !== status.CANCELLED) reject(e);
    });
  });
}

describe('ApplyConfiguration in normal mode', () => {
  it('is for os:admin only', async () => {
    expect((await errorOf(apply(base, { mode: 'AUTO' }, reader))).code).toBe(status.PERMISSION_DENIED);
  });

  it('dry-run returns the diff and changes nothing', async () => {
    const reply = first(await apply(withSANs(['10.9.9.9']), { mode: 'AUTO', dry_run: true }));
    expect(reply.mode).toBe('NO_REBOOT');
    expect(reply.mode_details).toMatch(/^\+\s+- 10\.9\.9\.9$/m);
    expect(await activeSANs()).toEqual(v1alpha1Of(base)?.machine?.certSANs);
    expect(existsSync(join(stateDir, 'config.yaml'))).toBe(false);
  });

  it('applies a live-safe change without a reboot and persists it', async () => {
    const reply = first(await apply(withSANs(['10.1.1.1']), { mode: 'NO_REBOOT' }));
    expect(reply.mode).toBe('NO_REBOOT');
    expect(await activeSANs()).toEqual(['10.1.1.1']);
    expect(readFileSync(join(stateDir, 'config.yaml'), 'utf8')).toContain('10.1.1.1');
  });

  it('stages a config for the next boot without activating it', async () => {
    const reply = first(await apply(withSANs(['10.2.2.2']), { mode: 'STAGED' }));
    expect(reply.mode).toBe('STAGED');
    expect(await activeSANs()).toEqual(['10.1.1.1']);
    expect(readFileSync(join(stateDir, 'config.yaml'), 'utf8')).toContain('10.2.2.2');
  });

  it('try mode applies, then rolls back to the previous config when the timeout passes', async () => {
    const watch = await state.watch(MachineConfig.pointer(MACHINE_CONFIG_ID), {
      signal: AbortSignal.timeout(10_000),
    });
    const sans: unknown[] = [];
    const seen = (async () => {
      for await (const ev of watch) {
        if (ev.type !== 'updated') continue;
        sans.push(v1alpha1Of((ev.resource as MachineConfig).spec as Config)?.machine?.certSANs);
        if (sans.length === 2) break;
      }
      watch.close();
    })();
    const reply = first(
      await apply(withSANs(['10.3.3.3']), { mode: 'TRY', try_mode_timeout: { nanos: 200e6 } }),
    );
    expect(reply.mode).toBe('TRY');
    await seen;
    // back to what was active before the try; the staged config stays for the next boot
    expect(sans).toEqual([['10.3.3.3'], ['10.1.1.1']]);
    expect(readFileSync(join(stateDir, 'config.yaml'), 'utf8')).toContain('10.2.2.2');
  });

  it('refuses a reboot-only change in NO_REBOOT mode and an invalid config, naming the field', async () => {
    const docs = structuredClone(base.documents);
    (docs.find((d) => d.kind === 'v1alpha1')!.spec as { machine: { token: string } }).machine.token =
      'abcdef.0123456789abcdef';
    const err = await errorOf(apply({ documents: docs } as Config, { mode: 'NO_REBOOT' }));
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    expect(err.details).toContain('need a reboot');
    const bad = await errorOf(
      callUnary(machine, 'ApplyConfiguration', {
        data: Buffer.from('machine:\n  type: nonsense\n'),
        mode: 'AUTO',
      }),
    );
    expect(bad.code).toBe(status.INVALID_ARGUMENT);
    expect(bad.details).toContain('machine.type');
  });
});

describe('services and logs', () => {
  it('refuses to stop or restart a service that does not allow it, as upstream; starting a running one is a no-op', async () => {
    for (const [method, op] of [
      ['ServiceStop', 'stop'],
      ['ServiceRestart', 'restart'],
    ] as const) {
      const err = await errorOf(callUnary(machine, method, { id: 'system' }));
      expect(err.code).toBe(status.FAILED_PRECONDITION);
      expect(err.details).toBe(`service "system" doesn't support ${op} operation via API`);
    }
    expect(first(await callUnary(machine, 'ServiceStart', { id: 'system' })).resp).toBe(
      'Service "system" started',
    );
    expect(supervisor.info('system').state).toBe('Running');
  });

  it('lists, stops, starts and restarts a service', async () => {
    const list = first(await callUnary(reader, 'ServiceList', {})).services as Reply[];
    expect(list.map((s) => [s.id, s.state])).toEqual([
      ['echo', 'Running'],
      ['system', 'Running'],
    ]);
    expect(first(await callUnary(machine, 'ServiceStop', { id: 'echo' })).resp).toBe(
      'Service "echo" stopped',
    );
    expect(supervisor.info('echo').state).toBe('Finished');
    expect(first(await callUnary(machine, 'ServiceStart', { id: 'echo' })).resp).toBe(
      'Service "echo" started',
    );
    await supervisor.waitFor(['echo'], { signal: AbortSignal.timeout(10_000) });
    expect(first(await callUnary(machine, 'ServiceRestart', { id: 'echo' })).resp).toBe(
      'Service "echo" restarted',
    );
    await supervisor.waitFor(['echo'], { signal: AbortSignal.timeout(10_000) });
    expect((await errorOf(callUnary(machine, 'ServiceStart', { id: 'nope' }))).code).toBe(
      status.INVALID_ARGUMENT,
    );
  });

  it('returns and follows a service log; the CRI driver is unimplemented', async () => {
    const all = await callStream(reader, 'Logs', { namespace: 'system', id: 'echo', tail_lines: 1 });
    expect(Buffer.concat(all.map((d) => d.bytes as Buffer)).toString()).toBe('hello from echo\n');
    // a follower sees what the restarted service writes next
    const followed = takeStream(
      'Logs',
      { namespace: 'system', id: 'echo', follow: true, tail_lines: 0 },
      (msgs) => msgs.some((m) => String(m.bytes).includes('hello')),
    );
    await callUnary(machine, 'ServiceRestart', { id: 'echo' });
    expect((await followed).length).toBeGreaterThan(0);
    const cri = await errorOf(callStream(reader, 'Logs', { namespace: 'k8s.io', id: 'x', driver: 'CRI' }));
    expect(cri.code).toBe(status.UNIMPLEMENTED);
    expect(cri.details).toContain('container runtime');
    const k8s = await errorOf(callStream(reader, 'Logs', { namespace: 'k8s.io', id: 'x' }));
    expect(k8s.code).toBe(status.UNIMPLEMENTED);
    expect(first(await callUnary(reader, 'LogsContainers', {})).ids).toEqual(['echo', 'system']);
  });
});

describe('client configuration, reset and health', () => {
  it('mints a talosconfig with the requested roles from the OS CA', async () => {
    const reply = first(await callUnary(machine, 'GenerateClientConfiguration', { roles: ['os:reader'] }));
    const tc = decodeTalosconfig(Buffer.from(reply.talosconfig as Buffer).toString());
    const ctx = tc.contexts[tc.context]!;
    const crt = parseCertificate(Buffer.from(ctx.crt, 'base64').toString());
    expect(crt.subject.organizations).toEqual(['os:reader']);
    expect(
      (await errorOf(callUnary(reader, 'GenerateClientConfiguration', { roles: ['os:admin'] }))).code,
    ).toBe(status.PERMISSION_DENIED);
  });

  it('answers Reset with Unimplemented and a reason; HealthCheck too without the state and etcd it reads', async () => {
    const reset = await errorOf(callUnary(machine, 'Reset', {}));
    expect(reset.code).toBe(status.UNIMPLEMENTED);
    expect(reset.details).toContain('disk');
    const health = await errorOf(callStream(cluster, 'HealthCheck', {}));
    expect(health.code).toBe(status.UNIMPLEMENTED);
  });
});

describe('Events and power', () => {
  it('sends the hello event first, then the kept history', async () => {
    const evs = await takeStream('Events', { tail_events: -1 }, (m) => m.length >= 3);
    expect(evs[0]!.data).toMatchObject({ type_url: '' });
    expect(String(evs[0]!.id)).toHaveLength(20);
    expect(evs.slice(1).map((e) => (e.data as Reply).type_url)).toContain(
      'talos/runtime/machine.ServiceStateEvent',
    );
  });

  it('Reboot returns an actor id that its sequence events carry', async () => {
    const actorId = String(first(await callUnary(machine, 'Reboot', {})).actor_id);
    expect(actorId).not.toBe('');
    const evs = await takeStream('Events', { tail_events: -1, with_actor_id: actorId }, (m) =>
      m.some((e) => (e.data as Reply).type_url === 'talos/runtime/machine.TaskEvent'),
    );
    expect(evs.slice(1).every((e) => e.actor_id === actorId)).toBe(true);
    expect(evs.map((e) => (e.data as Reply).type_url)).toContain('talos/runtime/machine.SequenceEvent');
  });
});
