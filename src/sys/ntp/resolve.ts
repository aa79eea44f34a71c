// Server names to addresses, through the C library's resolver (hosts file, then DNS), bounded in time.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { NtpError } from './errors.js';

export const DEFAULT_RESOLVE_TIMEOUT_MS = 5_000;

export interface ResolveOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** resolveServer gives every address of a name (an IP literal is its own answer), IPv4 first. */
export async function resolveServer(server: string, opts: ResolveOptions = {}): Promise<string[]> {
  if (isIP(server)) return [server];
  const { signal } = opts;
  signal?.throwIfAborted();
  const timeoutMs = opts.timeoutMs ?? DEFAULT_RESOLVE_TIMEOUT_MS;
  // getaddrinfo cannot be cancelled: the race abandons it, and its late answer is dropped
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const bounded = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new NtpError('dns', `ntp: resolving ${server}: no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    onAbort = () => reject(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const found = await Promise.race([
      lookup(server, { all: true, order: 'ipv4first' }).catch((cause: NodeJS.ErrnoException) => {
        throw new NtpError('dns', `ntp: resolving ${server}: ${cause.code ?? cause.message}`, undefined, {
          cause,
        });
      }),
      bounded,
    ]);
    if (found.length === 0) throw new NtpError('dns', `ntp: resolving ${server}: no addresses`);
    return [...new Set(found.map((a) => a.address))];
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
