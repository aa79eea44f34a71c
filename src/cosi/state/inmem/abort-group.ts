// Abort groups: one abort listener per signal, however many watches share it.

export interface Closable {
  close(): void;
}

interface Group {
  readonly members: Set<Closable>;
  readonly listener: () => void;
}

const groups = new WeakMap<AbortSignal, Group>();

/** closeOnAbort closes `c` when the signal aborts; controllers open hundreds of watches on one signal. */
export function closeOnAbort(signal: AbortSignal, c: Closable): void {
  let g = groups.get(signal);
  if (!g) {
    const members = new Set<Closable>();
    const listener = (): void => {
      groups.delete(signal);
      for (const m of members) m.close();
    };
    g = { members, listener };
    groups.set(signal, g);
    signal.addEventListener('abort', listener, { once: true });
  }
  g.members.add(c);
}

/** forget drops `c`, and the listener with the last member. */
export function forget(signal: AbortSignal, c: Closable): void {
  const g = groups.get(signal);
  if (!g) return;
  g.members.delete(c);
  if (g.members.size > 0) return;
  groups.delete(signal);
  signal.removeEventListener('abort', g.listener);
}
