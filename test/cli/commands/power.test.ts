// keelctl reboot, shutdown and reset: the action on every node, progress from its actor's events, the end
// when services stop (shutdown) or the node is ready with a new boot id (reboot); --wait=false fires and returns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import {
  type ApiMessage,
  type CallContext,
  type HandlerMap,
  type Send,
  serverStreamHandler,
  unaryHandler,
} from '../../../src/api/handlers.js';
import type { ProtoSchema } from '../../../src/cosi/resource/proto-schema.js';
import { encodeSpec } from '../../../src/cosi/resource/protobuf/spec-encode.js';
import { run, startNode, type TestNode, type Workdir, workdir } from '../fixtures.js';

const SCHEMAS: Record<string, ProtoSchema> = {
  SequenceEvent: { sequence: { no: 1, kind: 'string' }, action: { no: 2, kind: 'enum' } },
  PhaseEvent: { phase: { no: 1, kind: 'string' }, action: { no: 2, kind: 'enum' } },
  TaskEvent: { task: { no: 1, kind: 'string' }, action: { no: 2, kind: 'enum' } },
  MachineStatusEvent: {
    stage: { no: 1, kind: 'enum' },
    status: { no: 2, kind: 'message', schema: { ready: { no: 1, kind: 'bool' } } },
  },
};

/** A node's event bus: a history that tail_events=-1 replays, and live subscribers. */
function eventBus() {
  const history: ApiMessage[] = [];
  const live = new Set<(e: ApiMessage) => void>();
  let n = 0;
  return {
    history,
    emit(type: string, actor: string, fields: Record<string, unknown>) {
      const e = {
        id: `ev${++n}`,
        actor_id: actor,
        data: { type_url: `talos/runtime/machine.${type}`, value: encodeSpec(fields, SCHEMAS[type]!) },
      };
      history.push(e);
      for (const l of live) l(e);
    },
    async serve(req: ApiMessage, send: Send, ctx: CallContext) {
      const queue: ApiMessage[] = req.tail_events === -1 ? [...history] : [];
      let wake: (() => void) | undefined;
      const listener = (e: ApiMessage) => {
        queue.push(e);
        wake?.();
      };
      live.add(listener);
      try {
        while (!ctx.signal.aborted) {
          const next = queue.shift();
          if (next) await send(next);
          else
            await new Promise<void>((resolve) => {
              wake = resolve;
              ctx.signal.addEventListener('abort', () => resolve(), { once: true });
            });
        }
      } finally {
        live.delete(listener);
      }
    },
  };
}

let bootId = 'boot-1';
const bus = eventBus();
const handlers: HandlerMap = {
  '/machine.MachineService/Events': serverStreamHandler((req, send, ctx) => bus.serve(req, send, ctx)),
  '/machine.MachineService/Read': serverStreamHandler(async (req, send) => {
    if (req.path !== '/proc/sys/kernel/random/boot_id') throw new Error(`unexpected read of ${req.path}`);
    await send({ bytes: Buffer.from(`${bootId}\n`) });
  }),
  '/machine.MachineService/Reboot': unaryHandler(async () => {
    bus.emit('SequenceEvent', 'actor-r', { sequence: 'reboot', action: 1 });
    bus.emit('PhaseEvent', 'actor-r', { phase: 'stopEverything', action: 0 });
    bootId = 'boot-2';
    bus.emit('MachineStatusEvent', '', { stage: 4, status: { ready: true } });
    return { messages: [{ actor_id: 'actor-r' }] };
  }),
  '/machine.MachineService/Shutdown': unaryHandler(async () => {
    bus.emit('SequenceEvent', 'actor-s', { sequence: 'shutdown', action: 1 });
    bus.emit('TaskEvent', 'actor-s', { task: 'stopAllServices', action: 0 });
    return { messages: [{ actor_id: 'actor-s' }] };
  }),
};

/** A node that goes away mid-reboot: its event stream fails UNAVAILABLE once, then it is back on a new boot. */
let flakyBootId = 'boot-1';
let goingDown = false;
const flakyBus = eventBus();
const flaky: HandlerMap = {
  '/machine.MachineService/Events': serverStreamHandler(async (req, send, ctx) => {
    if (goingDown) {
      goingDown = false;
      for (const e of flakyBus.history) await send(e);
      flakyBootId = 'boot-2';
      flakyBus.emit('MachineStatusEvent', '', { stage: 4, status: { ready: true } });
      throw new ApiError('unavailable', 'node is rebooting');
    }
    await flakyBus.serve(req, send, ctx);
  }),
  '/machine.MachineService/Read': serverStreamHandler(async (_req, send) => {
    await send({ bytes: Buffer.from(`${flakyBootId}\n`) });
  }),
  '/machine.MachineService/Reboot': unaryHandler(async () => {
    flakyBus.emit('SequenceEvent', 'actor-f', { sequence: 'reboot', action: 1 });
    goingDown = true;
    return { messages: [{ actor_id: 'actor-f' }] };
  }),
};

let node: TestNode;
let bare: TestNode;
let flakyNode: TestNode;
let wd: Workdir;
const env = () => ({ TALOSCONFIG: wd.talosconfig });

beforeAll(async () => {
  [node, bare, flakyNode] = await Promise.all([
    startNode('node-a', handlers),
    startNode('bare'),
    startNode('flaky', flaky),
  ]);
  wd = await workdir(node.server.address);
});
afterAll(async () => {
  await Promise.all(
    [node, bare, flakyNode].map((n) => n?.server.close({ signal: AbortSignal.timeout(5_000) })),
  );
  wd?.remove();
});

describe('keelctl reboot, shutdown, reset', () => {
  it('reboots and waits for the node to be ready with a new boot id, reporting progress', async () => {
    const n = node.server.address;
    const r = await run(['reboot'], env());
    expect(r.stderr).toBe(
      [
        `${n}: actor ID: actor-r`,
        `${n}: sequence: reboot action: START`,
        `${n}: phase: stopEverything action: START`,
        `${n}: events check condition met`,
        `${n}: post check passed`,
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(0);
  });

  it('shuts down and waits until the services are stopped', async () => {
    const n = node.server.address;
    const r = await run(['shutdown'], env());
    expect(r.stderr).toBe(
      [
        `${n}: actor ID: actor-s`,
        `${n}: sequence: shutdown action: START`,
        `${n}: task: stopAllServices action: START`,
        `${n}: events check condition met`,
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(0);
  });

  it('fires and returns with --wait=false', async () => {
    const r = await run(['shutdown', '--wait=false'], env());
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('');
    expect(r.code).toBe(0);
  });

  it('surfaces UNIMPLEMENTED from a node without the action, naming it', async () => {
    const b = bare.server.address;
    const r = await run(['reset', '--wait=false', '-e', b, '-n', b], env());
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: error on node ${b}: rpc error: code = Unimplemented desc = /machine.MachineService/Reset is not implemented: the subsystem behind it does not exist in Keel yet\n`,
    );
  });

  it('keeps waiting through the node going away, reconnecting until it is back on a new boot', async () => {
    const f = flakyNode.server.address;
    const r = await run(['reboot', '-e', f, '-n', f], env());
    expect(r.stderr).toBe(
      [
        `${f}: actor ID: actor-f`,
        `${f}: sequence: reboot action: START`,
        `${f}: unavailable, retrying...`,
        `${f}: events check condition met`,
        `${f}: post check passed`,
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(0);
  });
});
