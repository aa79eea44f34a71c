// What a burst of clients costs in memory (their TLS and HTTP/2 sessions, the young generation V8 grew for
// them, the C heap's arenas) stays with the process after they go until something gives it back, and the
// best moment for that is one when nobody waits on an answer. whenQuiet tells of such moments: no
// connection open on the API's port for QUIET_MS since the last one closed, once per busy period, so a
// node whose clients keep coming is never told, and an idle one only once.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { ACCEPTED } from './client-first.js';

/** how long the API has had no connection open before it counts as quiet */
export const QUIET_MS = 10_000;

export interface WhenQuietOptions {
  /** default QUIET_MS */
  readonly quietMs?: number;
  readonly onQuiet: () => void;
}

/** whenQuiet watches the connections accepted on `port`; returns what stops it. */
export function whenQuiet(port: number, opts: WhenQuietOptions): () => void {
  const quietMs = opts.quietMs ?? QUIET_MS;
  let open = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const quiet = () => {
    timer = undefined;
    try {
      opts.onQuiet();
    } catch {
      // the listener's failure is its own to report; the watch goes on
    }
  };
  const onAccepted = (message: unknown) => {
    const socket = (message as { socket?: Socket }).socket;
    if (socket?.localPort !== port) return;
    open++;
    clearTimeout(timer);
    timer = undefined;
    socket.once('close', () => {
      if (--open === 0 && !stopped) timer = setTimeout(quiet, quietMs).unref();
    });
  };
  subscribe(ACCEPTED, onAccepted);
  return () => {
    stopped = true;
    unsubscribe(ACCEPTED, onAccepted);
    clearTimeout(timer);
  };
}
