// Turns of the event loop for reconciles: one reconcile starts per turn, so I/O runs between them.
//
// Promise continuations all run before any I/O, and so do all the immediates queued before a turn's
// check phase: a burst of wake-ups (every controller at start-up) would run back to back, holding
// sockets, timers and API calls until the last reconcile finished. Goroutines upstream are preempted;
// here each reconcile waits for a turn of its own, first come first served, across every runtime.
//
// Turns can also be held: while a client waits on the process (a new API connection's handshake and
// first call), no turn is given, so reconciles and start-up work give way to it. Every hold ends by
// itself after its bound, so background work is delayed, never starved.

const waiting: Array<() => void> = [];
let scheduled = false;
let holds = 0;

/** pump lets one waiter go; an immediate queued from an immediate runs only in the next turn. */
function pump(): void {
  scheduled = false;
  if (holds > 0) return; // the last release schedules again
  waiting.shift()?.();
  if (waiting.length > 0) schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(pump);
}

/** nextTurn resolves in a later turn of the event loop than the one before it, one caller per turn. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}

/**
 * holdTurns stops giving turns until the returned release is called or `maxMs` has passed, whichever
 * comes first; holds add up, and turns resume when the last one ends. Releasing twice is harmless.
 */
export function holdTurns(maxMs: number): () => void {
  holds++;
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    clearTimeout(bound);
    holds--;
    if (holds === 0 && waiting.length > 0) schedule();
  };
  // unref: a hold alone must not keep a process alive
  const bound = setTimeout(release, maxMs);
  bound.unref();
  return release;
}
