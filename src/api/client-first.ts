// A client that connects comes before background work: from the moment an API connection is accepted
// until it closes (at most CONNECTION_HOLD_MS), the controller runtime's turns are held, so reconciles and
// start-up work (the sequencer's phases, controller registration, the kernel log's backlog) wait while the
// TLS handshake and the first calls run. Under emulation a node's first seconds are all CPU: without this
// the first answer waited behind everything that starts with the node.
//
// A maintenance API also holds them from the moment it listens until its first connection closes (at most
// FIRST_CLIENT_HOLD_MS): a node in maintenance mode is there to be reached, and whoever waits for it (an
// apply-config retrying, a provisioning loop) connects within moments. Without that hold the first
// connection arrived while udevd and the controllers started, and under TCG its answer came ~0.13 s later.
// Once that first connection is accepted its own bound (FIRST_CONNECTION_HOLD_MS) replaces the one from
// listening: under TCG the handshake and first call take about a second, and background work let loose
// mid-call held the answer's last frames back.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { holdTurns } from '../cosi/controller/turns.js';

/** how long one connection may hold the turns: a handshake and a call, with room for a slow machine */
export const CONNECTION_HOLD_MS = 1_000;

/** how long a maintenance API waits for its first client before background work goes on regardless */
export const FIRST_CLIENT_HOLD_MS = 1_000;

/** how long the first client, once connected, may hold background work: a slow handshake and a call */
export const FIRST_CONNECTION_HOLD_MS = 2_500;

/** Node publishes every socket a net (so also TLS, HTTP/2) server accepts on this channel */
export const ACCEPTED = 'net.server.socket';

export interface ClientsFirstOptions {
  /** hold the turns from now until the first connection closes, at most this long; default no hold */
  readonly firstClientMs?: number;
  /** holdTurns unless a test watches the holds */
  readonly hold?: (maxMs: number) => () => void;
  /**
   * told once when the first-client hold ends: its connection closed, FIRST_CONNECTION_HOLD_MS passed
   * since it came, firstClientMs passed without one, or stopped
   */
  readonly onFirstClientGone?: () => void;
}

/**
 * clientsFirst holds the turns for each connection accepted on `port` (the API's listening port) until it
 * closes; returns what stops it (and ends a first-client hold still on).
 */
export function clientsFirst(port: number, opts: ClientsFirstOptions = {}): () => void {
  const hold = opts.hold ?? holdTurns;
  let firstPending = (opts.firstClientMs ?? 0) > 0;
  const releaseFirstHold = firstPending ? hold(opts.firstClientMs!) : () => {};
  const releaseFirst = () => {
    releaseFirstHold();
    if (!firstPending) return;
    firstPending = false;
    clearTimeout(firstBound);
    opts.onFirstClientGone?.();
  };
  // the hold ends by itself at its bound; this timer tells the listener of that end
  let firstBound = firstPending ? setTimeout(releaseFirst, opts.firstClientMs).unref() : undefined;
  let firstAccepted = false;
  const onAccepted = (message: unknown) => {
    const socket = (message as { socket?: Socket }).socket;
    if (socket?.localPort !== port) return;
    const first = firstPending && !firstAccepted;
    firstAccepted = true;
    if (first) {
      clearTimeout(firstBound);
      firstBound = setTimeout(releaseFirst, FIRST_CONNECTION_HOLD_MS).unref();
    }
    const release = hold(first ? FIRST_CONNECTION_HOLD_MS : CONNECTION_HOLD_MS);
    socket.once('close', () => {
      release();
      releaseFirst();
    });
  };
  subscribe(ACCEPTED, onAccepted);
  return () => {
    unsubscribe(ACCEPTED, onAccepted);
    releaseFirst();
  };
}
