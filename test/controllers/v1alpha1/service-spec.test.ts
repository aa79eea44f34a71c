// ServiceSpecs carried out on the real supervisor with real processes: a changed spec restarts its service
// alone (read from the supervisor's events), an equal one changes nothing, a gone one stops.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceSpecController } from '../../../controllers/v1alpha1/service-spec.js';
import { ServiceSpec, type ServiceSpecSpec } from '../../../resources/v1alpha1/index.js';
import { Runtime, silentLogger } from '../../../src/cosi/controller/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { EventBus } from '../../../src/machined/events/bus.js';
import { LoggingManager } from '../../../src/machined/logging/manager.js';
import { processKind, SpecHost, Supervisor } from '../../../src/machined/services/index.js';

const teardown: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const t of teardown.splice(0).reverse()) await t();
});

const sleeper = (over: Partial<ServiceSpecSpec> = {}): ServiceSpecSpec => ({
  ...ServiceSpec.codec.empty(),
  args: ['/bin/sleep', '1000'],
  env: { PATH: '/usr/bin:/bin' },
  ...over,
});

async function start() {
  const dir = mkdtempSync(join(tmpdir(), 'keel-specs-'));
  teardown.push(() => rmSync(dir, { recursive: true, force: true }));
  const state = wrapCore(newInmemState());
  const events = new EventBus();
  const supervisor = new Supervisor({ events, logs: new LoggingManager() });
  // as after the Boot sequence's startAllServices
  supervisor.startAll();
  const host = new SpecHost({ supervisor, kinds: { process: processKind } });
  const stop = new AbortController();
  const runtime = new Runtime(state, { logger: silentLogger });
  runtime.register(serviceSpecController(host));
  const run = runtime.run({ signal: stop.signal });
  teardown.push(async () => {
    stop.abort();
    await run;
  });
  teardown.push(() => supervisor.stopAll());
  /** until polls the supervisor (its state changes are synchronous with its events) */
  const until = async (what: string, ok: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const stateOf = (id: string) => supervisor.list().find((s) => s.id === id)?.state;
  const pidOf = (id: string) =>
    supervisor
      .info(id)
      .events.map((e) => /started with PID (\d+)/.exec(e.msg)?.[1])
      .filter(Boolean)
      .at(-1);
  /** the services named in the state events published from now on */
  const touched = () => {
    const seen: string[] = [];
    const watching = new AbortController();
    void (async () => {
      for await (const ev of events.watch({ signal: watching.signal })) {
        const p = ev.payload as { type: string; service?: string; action?: string };
        if (p.type === 'machine.ServiceStateEvent') seen.push(`${p.service} ${p.action}`);
      }
    })().catch(() => {});
    teardown.push(() => watching.abort());
    return seen;
  };
  return { dir, state, supervisor, host, until, stateOf, pidOf, touched };
}

describe('v1alpha1.ServiceSpecController on the supervisor', () => {
  it('starts each spec’s service, restarts only the one whose spec changed, and stops a removed one', async () => {
    const { dir, state, supervisor, until, stateOf, pidOf, touched } = await start();
    const conf = join(dir, 'etc', 'a.conf');
    await state.create(
      ServiceSpec.new('runtime', 'a', sleeper({ files: [{ path: conf, mode: 0o640, content: 'one\n' }] })),
    );
    await state.create(ServiceSpec.new('runtime', 'b', sleeper()));
    await until('a and b running', () => stateOf('a') === 'Running' && stateOf('b') === 'Running');
    expect(readFileSync(conf, 'utf8')).toBe('one\n');
    expect(statSync(conf).mode & 0o777).toBe(0o640);
    const [pidA, pidB] = [pidOf('a'), pidOf('b')];

    const seen = touched();
    await state.modify(ServiceSpec.new('runtime', 'a'), (r) => {
      (r as ServiceSpec).spec.files[0]!.content = 'two\n';
    });
    await until('a running again', () => stateOf('a') === 'Running' && pidOf('a') !== pidA);
    expect(readFileSync(conf, 'utf8')).toBe('two\n');
    expect(seen.every((s) => s.startsWith('a '))).toBe(true);
    expect(seen).toEqual(expect.arrayContaining(['a STOPPING', 'a FINISHED', 'a RUNNING']));
    expect(pidOf('b')).toBe(pidB);

    // a write that leaves the spec equal restarts nothing
    seen.length = 0;
    await state.modify(ServiceSpec.new('runtime', 'b'), (r) => {
      (r as ServiceSpec).spec = sleeper();
    });
    await state.modify(ServiceSpec.new('runtime', 'a'), (r) => {
      (r as ServiceSpec).spec.env = { ...(r as ServiceSpec).spec.env };
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).toEqual([]);

    await state.destroy(ServiceSpec.pointer('a'));
    await until('a unloaded', () => stateOf('a') === undefined);
    expect(seen).toEqual(['a STOPPING', 'a FINISHED']);
    expect(supervisor.list().map((s) => s.id)).toEqual(['b']);
  });

  it('judges health by a TCP connect when the spec asks for it', async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    teardown.push(() => new Promise<void>((r) => server.close(() => r())));
    const { port } = server.address() as { port: number };
    const { state, supervisor, until } = await start();
    await state.create(
      ServiceSpec.new('runtime', 'c', sleeper({ health: { kind: 'tcp', address: `127.0.0.1:${port}` } })),
    );
    await until('c healthy', () => supervisor.list().find((s) => s.id === 'c')?.health.healthy === true);
    expect(supervisor.info('c').up).toBe(true);
  });

  it('judges health by an HTTP 200 and makes the spec’s directories, their modes enforced', async () => {
    let status = 500;
    const server = createHttpServer((_, res) => res.writeHead(status).end()).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    teardown.push(() => new Promise<void>((r) => server.close(() => r())));
    const { port } = server.address() as { port: number };
    const { dir, state, supervisor, until } = await start();
    const logs = join(dir, 'var/log/pods');
    const health = () => supervisor.list().find((s) => s.id === 'h')?.health;
    const spec = sleeper({
      dirs: [{ path: logs, mode: 0o755 }],
      health: { kind: 'http', url: `http://127.0.0.1:${port}/healthz`, initialDelayMs: 10 },
    });
    // the round trip through YAML keeps both
    expect(ServiceSpec.codec.fromYAML?.(JSON.parse(JSON.stringify(spec)))).toEqual(spec);
    await state.create(ServiceSpec.new('runtime', 'h', spec));
    await until('h unhealthy', () => health()?.unknown === false && !health()?.healthy);
    expect(health()?.lastMessage).toBe('expected HTTP status OK, got 500 Internal Server Error');
    expect(statSync(logs).mode & 0o777).toBe(0o755);
    status = 200;
    await until('h healthy', () => health()?.healthy === true);
  });

  it('refuses a spec of an unknown kind and one that would redefine machined’s own service', async () => {
    const { supervisor, host } = await start();
    await expect(host.ensure('x', sleeper({ kind: 'vm' }))).rejects.toThrow(
      'service "x": unknown kind "vm" (known: process)',
    );
    supervisor.load({ id: 'apid', runner: () => null });
    await expect(host.ensure('apid', sleeper())).rejects.toThrow(
      `service "apid" is machined's own: a spec cannot redefine it`,
    );
  });
});

describe('SpecHost before the Boot sequence', () => {
  it('only loads a service until the supervisor has started everything, which then starts it', async () => {
    const supervisor = new Supervisor({ events: new EventBus(), logs: new LoggingManager() });
    teardown.push(() => supervisor.stopAll());
    const host = new SpecHost({ supervisor, kinds: { process: processKind } });
    expect(await host.ensure('early', sleeper())).toBe('loaded');
    expect(supervisor.info('early').state).toBe('Initialized');
    supervisor.startAll();
    const deadline = Date.now() + 10_000;
    while (supervisor.info('early').state !== 'Running' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    expect(supervisor.info('early').state).toBe('Running');
    expect(await host.ensure('late', sleeper())).toBe('started');
  });
});
