// probeTCP: go-loadbalancer's health check, a TCP connect and close; the time it took ranks the upstream.
import type { HostPort } from './address.js';
import { dialTCP } from './dial.js';
import { lingerSeconds } from './tcp-tuning.js';

/** probeTCP resolves with the milliseconds a connect and close took, or rejects with why it failed. */
export async function probeTCP(to: HostPort, timeoutMs: number, signal?: AbortSignal): Promise<number> {
  const start = performance.now();
  const s = await dialTCP(to, { timeoutMs, ...(signal ? { signal } : {}) });
  // upstream's probes linger 1 s, so checks every few seconds leave few sockets behind in TIME-WAIT
  lingerSeconds(s, 1);
  s.destroy();
  return performance.now() - start;
}
