// A client that connects comes before background work: from the moment an API connection is accepted
// until it closes (at most CONNECTION_HOLD_MS), the controller runtime's turns are held, so reconciles and
// start-up work (the sequencer's phases, controller registration, the kernel log's backlog) wait while the
// TLS handshake and the first calls run. Under emulation a node's first seconds are all CPU: without this
// the first answer waited behind everything that starts with the node.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { holdTurns } from '../cosi/controller/index.js';

/** how long one connection may hold the turns: a handshake and a call, with room for a slow machine */
export const CONNECTION_HOLD_MS = 1_000;

/** Node publishes every socket a net (so also TLS, HTTP/2) server accepts on this channel */
const ACCEPTED = 'net.server.socket';

/**
 * clientsFirst holds the turns for each connection accepted on `port` (the API's listening port) until it
 * closes; returns what stops it. `hold` is holdTurns unless a test watches the holds.
 */
export function clientsFirst(port: number, hold: (maxMs: number) => () => void = holdTurns): () => void {
  const onAccepted = (message: unknown) => {
    const socket = (message as { socket?: Socket }).socket;
    if (socket?.localPort !== port) return;
    socket.once('close', hold(CONNECTION_HOLD_MS));
  };
  subscribe(ACCEPTED, onAccepted);
  return () => {
    unsubscribe(ACCEPTED, onAccepted);
  };
}
