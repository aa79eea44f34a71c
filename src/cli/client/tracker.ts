// Following a reboot, shutdown or reset to its end, as talosctl's action tracker does: each node's events
// for the action's actor are reported as progress, and the node is done when its services are stopped
// (shutdown) or it is back, ready, with a new boot id (reboot).
import { setTimeout as delay } from 'node:timers/promises';
import { status } from '@grpc/grpc-js';
import type { Output } from '../io.js';
import type { Route } from './connection.js';
import { nodeReply } from './envelope.js';
import { ClientError, fromRPC, nodeError } from './errors.js';
import { type DecodedEvent, decodeEvent, MACHINE_STAGES, type WireEvent } from './event-payload.js';
import { answersInsecurely, MAINTENANCE_MODE, refusedMutualTLS } from './maintenance-probe.js';
import type { Session } from './session.js';

/** What ends the wait: services stopped (the node goes down) or the machine running and ready again. */
export type Goal = 'services-stopped' | 'machine-ready';

export interface TrackOptions {
  readonly goal: Goal;
  /** reboot-like actions also check that the boot id changed, so a stale "ready" cannot end the wait */
  readonly bootIdChanges: boolean;
  readonly timeoutMs: number;
  /** pause between reconnects while the node is down */
  readonly retryDelayMs?: number;
  readonly signal: AbortSignal;
}

export const BOOT_ID_PATH = '/proc/sys/kernel/random/boot_id';

const routeTo = (s: Session, node: string): Route =>
  s.nodes.length ? { kind: 'nodes', nodes: [node] } : { kind: 'direct' };

/** codeOf is the gRPC status of a failure: a wire error's code, or the one a node's envelope carried. */
const codeOf = (e: unknown) =>
  e instanceof ClientError ? e.grpcCode : (e as { code?: unknown } | null)?.code;
/** isDown: the node (or the way to it) is gone for now, the expected state mid-reboot. */
const isDown = (e: unknown) => codeOf(e) === status.UNAVAILABLE || codeOf(e) === status.CANCELLED;

/** readBootId reads the node's boot id through the Read RPC. */
export async function readBootId(s: Session, node: string, signal: AbortSignal): Promise<string> {
  let out = '';
  for await (const m of s.conn.stream<WireEvent & { bytes?: Uint8Array }>(
    'machine.MachineService',
    'Read',
    { path: BOOT_ID_PATH },
    { route: routeTo(s, node), signal },
  )) {
    const r = nodeReply(m, node);
    if (!r.ok) throw r.error;
    if (m.bytes) out += Buffer.from(m.bytes).toString('utf8');
  }
  return out.trim();
}

/** progressOf words an event of the action as talosctl's tracker reports it. */
export function progressOf(e: DecodedEvent): string | undefined {
  const f = e.fields;
  switch (e.type) {
    case 'machine.PhaseEvent':
    case 'machine.TaskEvent':
    case 'machine.SequenceEvent': {
      const what =
        e.type === 'machine.PhaseEvent' ? 'phase' : e.type === 'machine.TaskEvent' ? 'task' : 'sequence';
      return `${what}: ${e.source} action: ${e.message}`;
    }
    case 'machine.MachineStatusEvent': {
      const st = (f.status ?? {}) as {
        ready?: boolean;
        unmetConditions?: { name: string; reason: string }[];
      };
      const unmet = (st.unmetConditions ?? []).map((c) => `name:"${c.name}" reason:"${c.reason}"`).join(' ');
      return `stage: ${e.source} ready: ${st.ready === true} unmetCond: [${unmet}]`;
    }
    case 'machine.ServiceStateEvent':
      return `service: ${e.source} message: ${String(f.message ?? '')}`;
    default:
      return undefined;
  }
}

/** reached says whether an event meets the goal. */
export function reached(goal: Goal, e: DecodedEvent): boolean {
  if (goal === 'services-stopped') return e.type === 'machine.TaskEvent' && e.source === 'stopAllServices';
  if (e.type !== 'machine.MachineStatusEvent') return false;
  const ready = (e.fields.status as { ready?: boolean } | undefined)?.ready === true;
  return e.source === MACHINE_STAGES[4] && ready; // RUNNING
}

/**
 * trackNode follows one node after its action started as `actorId`. It reads the whole event history (so nothing
 * between the action and the subscription is lost) and counts the goal only after the actor's own events.
 */
export async function trackNode(
  s: Session,
  io: Output,
  node: string,
  actorId: string,
  preBootId: string | undefined,
  opts: TrackOptions,
): Promise<void> {
  const signal = AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs)]);
  const report = (msg: string) => io.err(`${node}: ${msg}`);
  let seenActor = false;
  let done = false;
  // After a reconnect the node is on a new boot, whose events carry no actor: follow those instead.
  let actor = actorId;
  report(`actor ID: ${actorId}`);
  while (!done) {
    try {
      for await (const m of s.conn.stream<WireEvent>(
        'machine.MachineService',
        'Events',
        { tail_events: -1 },
        { route: routeTo(s, node), signal },
      )) {
        const r = nodeReply(m, node);
        if (!r.ok) throw r.error;
        const e = decodeEvent(m);
        if (!e) continue;
        // "ready" ends the wait before it is reported; the stopAllServices task is reported, then ends it
        if (seenActor && opts.goal === 'machine-ready' && reached(opts.goal, e)) {
          done = true;
          break;
        }
        if (e.actorId === actor) {
          seenActor = true;
          const p = progressOf(e);
          if (p) report(p);
          const err = (e.fields.error as { message?: string } | null | undefined)?.message;
          if (e.type === 'machine.SequenceEvent' && err) throw nodeError(node, `sequence error: ${err}`);
        }
        if (seenActor && reached(opts.goal, e)) {
          done = true;
          break;
        }
      }
      if (!done && opts.goal === 'services-stopped' && seenActor) done = true; // the node went down
    } catch (e) {
      if (signal.aborted) throw timeoutOrAbort(node, opts.signal);
      // once the shutdown has begun, losing the stream in any way (the API itself stops) is where it ends
      if (opts.goal === 'services-stopped' && seenActor) break;
      // a node back without its config will never be ready: say so now rather than at the timeout
      if (refusedMutualTLS(e) && (await answersInsecurely(node, signal)))
        throw nodeError(node, MAINTENANCE_MODE);
      if (!isDown(e)) throw fromRPC(e, node);
      seenActor = true; // after a reboot the history is the new boot's: its first "ready" counts
      actor = '';
    }
    if (!done) {
      report('unavailable, retrying...');
      await pause(opts.retryDelayMs ?? 1000, signal, node, opts.signal);
    }
  }
  report('events check condition met');
  if (!opts.bootIdChanges || preBootId === undefined) return;
  for (;;) {
    try {
      const now = await readBootId(s, node, signal);
      if (now !== preBootId) break;
    } catch (e) {
      if (signal.aborted) throw timeoutOrAbort(node, opts.signal);
      if (refusedMutualTLS(e) && (await answersInsecurely(node, signal)))
        throw nodeError(node, MAINTENANCE_MODE);
      if (!isDown(e)) throw fromRPC(e, node, 'reading the boot id');
    }
    await pause(opts.retryDelayMs ?? 1000, signal, node, opts.signal);
  }
  report('post check passed');
}

const timeoutOrAbort = (node: string, user: AbortSignal): ClientError =>
  nodeError(node, user.aborted ? 'interrupted while waiting' : 'timed out waiting for the action to finish');

async function pause(ms: number, signal: AbortSignal, node: string, user: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, { signal });
  } catch {
    throw timeoutOrAbort(node, user);
  }
}
