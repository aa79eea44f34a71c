// Turns of the event loop for reconciles: one reconcile starts per turn, so I/O runs between them.
//
// Promise continuations all run before any I/O, and so do all the immediates queued before a turn's
// check phase: a burst of wake-ups (every controller at start-up) would run back to back, holding
// sockets, timers and API calls until the last reconcile finished. Goroutines upstream are preempted;
// here each reconcile waits for a turn of its own, first come first served, across every runtime.

const waiting: Array<() => void> = [];
let scheduled = false;

/** pump lets one waiter go; an immediate queued from an immediate runs only in the next turn. */
function pump(): void {
  scheduled = false;
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
