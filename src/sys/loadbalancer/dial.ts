// dialTCP: one outgoing TCP connection with a deadline, both address families tried for a name
// (localhost is 127.0.0.1 and ::1), its failure a LoadBalancerError naming the upstream.
import { connect, type Socket } from 'node:net';
import { type HostPort, joinHostPort } from './address.js';
import { LoadBalancerError } from './errors.js';

export interface DialOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** dialTCP resolves with the connected socket (half-open allowed, as a proxy needs). */
export function dialTCP(to: HostPort, { timeoutMs, signal }: DialOptions): Promise<Socket> {
  const address = joinHostPort(to);
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const s = connect({ host: to.host, port: to.port, autoSelectFamily: true, allowHalfOpen: true });
    const fail = (e: Error) => {
      done();
      s.destroy();
      reject(e);
    };
    const timer = setTimeout(
      () => fail(new LoadBalancerError('dial-timeout', address, `no connection within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onAbort = () => fail(signal?.reason as Error);
    const onError = (e: Error) => fail(new LoadBalancerError('dial', address, e.message, { cause: e }));
    const onConnect = () => {
      done();
      resolve(s);
    };
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      s.off('error', onError);
      s.off('connect', onConnect);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    s.once('error', onError);
    s.once('connect', onConnect);
  });
}
