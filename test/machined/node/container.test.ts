// Acceptance of container mode: a real node process in maintenance mode takes a config over TLS without a
// client certificate, then serves mutual TLS only, with state, services, events and logs; it keeps its
// config across a restart and ends cleanly on Shutdown.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ChannelCredentials, type Client, credentials, status } from '@grpc/grpc-js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Config, encode } from '../../../src/config/index.js';
import { callStream, callUnary, errorOf, type Reply, serviceClient } from '../../api/fixtures.js';
import { testCluster } from './cluster.js';
import { cleanup, freePort, spawnNode, tempStateDir } from './harness.js';

const insecure = () =>
  credentials.createSsl(null, null, null, {
    rejectUnauthorized: false,
    checkServerIdentity: () => undefined,
  });

const _pem = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

let controlplane: Config;
let adminCreds: () => ChannelCredentials;
const clients: Client[] = [];

const client = (service: string, address: string, creds = insecure()) => {
  const c = serviceClient(service, address, creds);
  clients.push(c);
  return c;
};

/** written to the kernel log before any node starts, to be found in the node's `kernel` ring */
const KMSG_MARKER = `keel-container-test-${process.pid}-${Date.now()}`;

beforeAll(async () => {
  writeFileSync('/dev/kmsg', `${KMSG_MARKER}\n`);
  ({ controlplane, adminCreds } = await testCluster('keel-test', 'https://127.0.0.1:6443'));
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await cleanup();
});

/** startMaintenanceNode spawns a node on an empty state directory and waits for its console hint. */
async function startMaintenanceNode() {
  const stateDir = tempStateDir();
  const node = await spawnNode(stateDir, await freePort());
  await node.waitForLine(/server certificate fingerprint: /);
  return { node, stateDir };
}

/** applyFirstConfig sends the controlplane config insecurely and waits until the node runs. */
async function applyFirstConfig(address: string, waitForLine: (re: RegExp) => Promise<string>) {
  const m = client('machine.MachineService', address);
  const reply = await callUnary(m, 'ApplyConfiguration', {
    data: Buffer.from(encode(controlplane)),
    mode: 'AUTO',
  });
  await waitForLine(/node running/);
  return reply;
}

describe('container node', () => {
  it('leaves maintenance mode when a config is applied with --insecure, then serves mutual TLS only', async () => {
    const { node, stateDir } = await startMaintenanceNode();
    expect(node.lines.some((l) => l.includes('apply-config --insecure'))).toBe(true);
    const m = client('machine.MachineService', node.address);
    const version = await callUnary(m, 'Version', {});
    expect((version.messages as Reply[])[0]!.version).toBeDefined();

    const reply = await applyFirstConfig(node.address, node.waitForLine);
    expect((reply.messages as Reply[])[0]).toMatchObject({ mode: 'NO_REBOOT' });
    expect(existsSync(join(stateDir, 'config.yaml'))).toBe(true);

    // no client certificate is no longer enough
    const anonymous = client('machine.MachineService', node.address);
    expect((await errorOf(callUnary(anonymous, 'Version', {}))).code).toBe(status.UNAVAILABLE);

    const cosi = client('cosi.resource.State', node.address, adminCreds());
    const ms = await callUnary(cosi, 'Get', {
      namespace: 'runtime',
      type: 'MachineStatuses.runtime.talos.dev',
      id: 'machine',
    });
    const spec = (ms.resource as { spec: Reply }).spec;
    expect(spec.yaml_spec).toMatch(/stage: running/);
    expect(spec.yaml_spec).toMatch(/ready: true/);

    const machine = client('machine.MachineService', node.address, adminCreds());
    const services = await callUnary(machine, 'ServiceList', {});
    const list = (services.messages as Reply[])[0]!.services as Reply[];
    expect(list.map((s) => [s.id, s.state])).toContainEqual(['apid', 'Running']);

    const logs = await callStream(machine, 'Logs', { namespace: 'system', id: 'machined', tail_lines: 50 });
    const text = Buffer.concat(logs.map((d) => d.bytes as Buffer)).toString();
    expect(text).toContain('node running');

    // the kernel log has its own ring: the marker written before the node started is in it
    const kernel = await callStream(machine, 'Logs', {
      namespace: 'system',
      id: 'kernel',
      tail_lines: 1_000_000,
    });
    expect(Buffer.concat(kernel.map((d) => d.bytes as Buffer)).toString()).toContain(KMSG_MARKER);

    const containers = await callUnary(machine, 'LogsContainers', {});
    expect((containers.messages as Reply[])[0]!.ids).toEqual(expect.arrayContaining(['apid', 'machined']));
  });

  it('dry-run returns a diff and changes nothing; an invalid config names the field', async () => {
    const { node, stateDir } = await startMaintenanceNode();
    const m = client('machine.MachineService', node.address);
    const dry = await callUnary(m, 'ApplyConfiguration', {
      data: Buffer.from(encode(controlplane)),
      mode: 'AUTO',
      dry_run: true,
    });
    const details = String((dry.messages as Reply[])[0]!.mode_details);
    expect(details).toContain('Config diff:');
    expect(details).toMatch(/^\+\s*type: controlplane$/m);
    expect(existsSync(join(stateDir, 'config.yaml'))).toBe(false);
    // still in maintenance: the insecure client keeps working, and may not write anything but a config or
    // a power-off
    await callUnary(m, 'Version', {});
    expect((await errorOf(callUnary(m, 'Reboot', {}))).code).toBe(status.PERMISSION_DENIED);

    const broken = encode(controlplane).replace(/^( {4}type:) controlplane$/m, '$1 bogus');
    expect(broken).not.toBe(encode(controlplane));
    const err = await errorOf(
      callUnary(m, 'ApplyConfiguration', { data: Buffer.from(broken), mode: 'AUTO' }),
    );
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    expect(err.details).toContain('machine.type');
    expect(existsSync(join(stateDir, 'config.yaml'))).toBe(false);
  });

  it('comes back in normal mode with the same state directory, streams events with actor ids and shuts down', async () => {
    const first = await startMaintenanceNode();
    await applyFirstConfig(first.node.address, first.node.waitForLine);
    const admin1 = client('machine.MachineService', first.node.address, adminCreds());
    await callUnary(admin1, 'Shutdown', {});
    expect(await first.node.exited).toBe(0);

    const port = await freePort();
    const node = await spawnNode(first.stateDir, port);
    await node.waitForLine(/node running/);
    expect(node.lines.some((l) => l.includes('maintenance mode'))).toBe(false);

    const machine = client('machine.MachineService', node.address, adminCreds());
    const history = await takeEvents(machine, { tail_events: -1 }, (evs) =>
      evs.some((e) => typeUrlOf(e) === 'talos/runtime/machine.SequenceEvent'),
    );
    expect(typeUrlOf(history[0]!)).toBe('');
    // the stage reached (running, ready) travels as a MachineStatusEvent: reboot --wait ends on it
    const status = await takeEvents(machine, { tail_events: -1 }, (evs) => evs.some(isRunningAndReady));
    expect(status.some(isRunningAndReady)).toBe(true);
    expect(history.every((e) => typeof e.id === 'string' && (e.id as string).length === 20)).toBe(true);

    // follow live events, then shut down: the tracker waits for stopAllServices under its actor id
    const { seen, stream } = await followEvents(machine);
    const shutdown = await callUnary(machine, 'Shutdown', {});
    const actorId = String((shutdown.messages as Reply[])[0]!.actor_id);
    expect(actorId).not.toBe('');
    expect(await node.exited).toBe(0);
    stream.cancel();
    const mine = seen.filter((e) => e.actor_id === actorId);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.map(typeUrlOf)).toContain('talos/runtime/machine.SequenceEvent');
  });
});

describe('container node power and preload', () => {
  it('Reboot runs the reboot sequence and starts a new node run with a new boot id and the same config', async () => {
    const { node } = await startMaintenanceNode();
    await applyFirstConfig(node.address, node.waitForLine);
    const cosi = client('cosi.resource.State', node.address, adminCreds());
    const bootId = async () => {
      const r = await callUnary(cosi, 'Get', {
        namespace: 'runtime',
        type: 'BootIDs.runtime.talos.dev',
        id: 'boot-id',
      });
      return String((r.resource as { spec: Reply }).spec.yaml_spec);
    };
    const before = await bootId();
    const machine = client('machine.MachineService', node.address, adminCreds());
    const reply = await callUnary(machine, 'Reboot', {});
    expect(String((reply.messages as Reply[])[0]!.actor_id)).not.toBe('');
    await node.waitForLine(/reboot: starting a new node run/);
    await node.waitForCount(/node running/, 2);
    expect(node.lines.filter((l) => l.includes('server certificate fingerprint'))).toHaveLength(1);
    const cosi2 = client('cosi.resource.State', node.address, adminCreds());
    const r = await callUnary(cosi2, 'Get', {
      namespace: 'runtime',
      type: 'BootIDs.runtime.talos.dev',
      id: 'boot-id',
    });
    expect(String((r.resource as { spec: Reply }).spec.yaml_spec)).not.toBe(before);
  });

  it('--config stores a config into an empty state directory and boots straight into normal mode', async () => {
    const stateDir = tempStateDir();
    const file = join(stateDir, 'preload.yaml');
    writeFileSync(file, encode(controlplane));
    const node = await spawnNode(stateDir, await freePort(), ['--config', file]);
    await node.waitForLine(/node running/);
    expect(node.lines.some((l) => l.includes('maintenance mode'))).toBe(false);
    expect(readFileSync(join(stateDir, 'config.yaml'), 'utf8')).toBe(encode(controlplane));
    const machine = client('machine.MachineService', node.address, adminCreds());
    await callUnary(machine, 'Version', {});
  });
});

/** followEvents follows the node's live events from its hello event on, collecting them. */
async function followEvents(machine: Client) {
  const seen: Reply[] = [];
  const stream = (
    machine as unknown as { Events(r: object): NodeJS.EventEmitter & { cancel(): void } }
  ).Events({
    tail_events: 0,
  });
  const hello = new Promise<void>((resolve) => stream.once('data', () => resolve()));
  stream.on('data', (e: Reply) => seen.push(e));
  stream.on('error', () => {});
  await hello;
  return { seen, stream };
}

const typeUrlOf = (e: Reply) => String((e.data as Reply | undefined)?.type_url ?? '');

/** isRunningAndReady reads machine.MachineStatusEvent{stage=1 RUNNING(4), status=2{ready=1 true}}. */
const isRunningAndReady = (e: Reply): boolean => {
  if (typeUrlOf(e) !== 'talos/runtime/machine.MachineStatusEvent') return false;
  const value = Buffer.from((e.data as { value: Uint8Array }).value);
  return (
    value.subarray(0, 2).equals(Buffer.from([0x08, 0x04])) &&
    value.includes(Buffer.from([0x12, 0x02, 0x08, 0x01]))
  );
};

/** takeEvents reads Events until `done` holds for what arrived, then cancels the stream. */
function takeEvents(c: Client, req: object, done: (evs: Reply[]) => boolean): Promise<Reply[]> {
  return new Promise((resolve, reject) => {
    const call = (c as unknown as { Events(r: object): NodeJS.EventEmitter & { cancel(): void } }).Events(
      req,
    );
    const out: Reply[] = [];
    call.on('data', (e: Reply) => {
      out.push(e);
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

describe('container node in maintenance mode', () => {
  it('applies a config of network documents alone and stays in maintenance mode until a full one comes', async () => {
    const { node, stateDir } = await startMaintenanceNode();
    const m = client('machine.MachineService', node.address);
    const partial = 'apiVersion: v1alpha1\nkind: ResolverConfig\nnameservers:\n  - address: 192.0.2.53\n';
    await callUnary(m, 'ApplyConfiguration', { data: Buffer.from(partial), mode: 'AUTO' });
    await node.waitForLine(/not complete for boot .*staying in maintenance mode/);
    // nothing is stored for the next boot, and the node is still in maintenance mode
    expect(existsSync(join(stateDir, 'config.yaml'))).toBe(false);
    expect(node.lines.some((l) => l.includes('leaving maintenance mode'))).toBe(false);
    expect(((await callUnary(m, 'Version', {})).messages as Reply[])[0]!.version).toBeDefined();
    // a complete config then boots the node as usual
    await applyFirstConfig(node.address, (re) => node.waitForLine(re));
    expect(node.lines.some((l) => l.includes('leaving maintenance mode'))).toBe(true);
  });

  it('applies a partial config from its state directory and waits in maintenance mode for the rest', async () => {
    const stateDir = tempStateDir();
    const partial = 'apiVersion: v1alpha1\nkind: ResolverConfig\nnameservers:\n  - address: 192.0.2.53\n';
    writeFileSync(join(stateDir, 'config.yaml'), partial);
    const node = await spawnNode(stateDir, await freePort());
    await node.waitForLine(/config: state \(config.yaml on STATE\): not complete for boot/);
    await node.waitForLine(/not complete for boot .*staying in maintenance mode/);
    await node.waitForLine(/server certificate fingerprint: /);
    // (the line above is logged once the MachineConfig resource the controllers watch holds it)
    expect(node.lines.some((l) => l.includes('leaving maintenance mode'))).toBe(false);
    await applyFirstConfig(node.address, (re) => node.waitForLine(re));
    expect(readFileSync(join(stateDir, 'config.yaml'), 'utf8')).toBe(encode(controlplane));
  });

  it('names a stored config that does not decode, and waits in maintenance mode', async () => {
    const stateDir = tempStateDir();
    writeFileSync(join(stateDir, 'config.yaml'), 'machine: [unclosed\n');
    const node = await spawnNode(stateDir, await freePort());
    await node.waitForLine(
      /config: state \(config.yaml on STATE\): failed to decode .*trying the next source/,
    );
    await node.waitForLine(/no source holds a config complete for boot, entering maintenance mode/);
    await node.waitForLine(/server certificate fingerprint: /);
    const m = client('machine.MachineService', node.address);
    expect(((await callUnary(m, 'Version', {})).messages as Reply[])[0]!.version).toBeDefined();
  });

  it('powers off on Shutdown from an insecure client, with the task event a waiting client ends at', async () => {
    const { node } = await startMaintenanceNode();
    const m = client('machine.MachineService', node.address);
    await node.waitForLine(/initialize sequence: done/);
    const { seen, stream } = await followEvents(m);
    const reply = await callUnary(m, 'Shutdown', {});
    const actorId = String((reply.messages as Reply[])[0]!.actor_id);
    expect(actorId).not.toBe('');
    expect(await node.exited).toBe(0);
    stream.cancel();
    const tasks = seen.filter(
      (e) => e.actor_id === actorId && typeUrlOf(e) === 'talos/runtime/machine.TaskEvent',
    );
    expect(tasks.length).toBeGreaterThan(0);
  });
});
