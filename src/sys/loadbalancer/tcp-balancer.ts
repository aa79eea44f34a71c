// A TCP load balancer (go-loadbalancer's TCP route): it listens on one address, hands each connection to
// an upstream picked by the policy in upstream-list.ts and copies bytes both ways, half-closes included.
// Upstreams are health-checked by TCP connect every interval; a failed dial counts against one too. With
// no usable upstream a connection is accepted and closed at once.
import { setMaxListeners } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type HostPort, joinHostPort } from './address.js';
import { dialTCP } from './dial.js';
import { LoadBalancerError } from './errors.js';
import { probeTCP } from './health-probe.js';
import { keepAlive, userTimeout } from './tcp-tuning.js';
import {
  down,
  emptyUpstreamList,
  healthy,
  pick,
  reconcile,
  TCP_UPSTREAM_POLICY,
  tierOfLatency,
  type Upstream,
  type UpstreamList,
  type UpstreamPolicy,
  up,
} from './upstream-list.js';

export interface TCPBalancerOptions {
  /** where to listen; port 0 takes a free one */
  readonly host: string;
  readonly port: number;
  readonly dialTimeoutMs: number;
  readonly keepAlivePeriodMs: number;
  readonly tcpUserTimeoutMs: number;
  readonly healthCheckIntervalMs: number;
  /** for each upstream's check */
  readonly healthCheckTimeoutMs: number;
  readonly policy?: UpstreamPolicy;
  /** onHealthChange is told each time healthy() turns */
  readonly onHealthChange?: (healthy: boolean) => void;
}

export interface TCPBalancer {
  /** host:port listened on, the port resolved */
  readonly address: string;
  readonly port: number;
  /** setUpstreams replaces the upstreams; those kept keep their health */
  setUpstreams(upstreams: readonly HostPort[]): void;
  /** healthy: some upstream would be picked now */
  healthy(): boolean;
  upstreams(): readonly Upstream[];
  /** close stops listening and checking, and ends every proxied connection */
  close(): Promise<void>;
}

/** startTCPBalancer resolves once it listens, or rejects with a LoadBalancerError('listen'). */
export async function startTCPBalancer(o: TCPBalancerOptions): Promise<TCPBalancer> {
  const policy = o.policy ?? TCP_UPSTREAM_POLICY;
  let list: UpstreamList = emptyUpstreamList();
  const targets = new Map<string, HostPort>();
  const open = new Set<Socket>();
  const stop = new AbortController();
  setMaxListeners(0, stop.signal); // one listener per dial in flight: many is no leak
  let wasHealthy = false;

  /** update applies a policy step and tells the owner when health turned */
  const update = (next: UpstreamList) => {
    list = next;
    const now = healthy(list);
    if (now !== wasHealthy) {
      wasHealthy = now;
      o.onHealthChange?.(now);
    }
  };

  const track = (s: Socket) => {
    open.add(s);
    s.once('close', () => open.delete(s));
  };

  const proxy = async (client: Socket) => {
    track(client);
    client.on('error', () => client.destroy());
    const picked = pick(list, policy);
    if (!picked) {
      client.destroy();
      return;
    }
    list = picked.list;
    let upstream: Socket;
    try {
      upstream = await dialTCP(targets.get(picked.address)!, {
        timeoutMs: o.dialTimeoutMs,
        signal: stop.signal,
      });
    } catch {
      if (!stop.signal.aborted) update(down(list, picked.address, policy));
      client.destroy();
      return;
    }
    track(upstream);
    // either side's failure ends both; a clean end of one direction only half-closes the other side
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    upstream.on('error', end);
    client.on('error', end);
    if (client.destroyed || stop.signal.aborted) return end();
    try {
      for (const s of [client, upstream]) {
        keepAlive(s, o.keepAlivePeriodMs);
        userTimeout(s, o.tcpUserTimeoutMs);
      }
    } catch {
      return end(); // a socket closed under us (setsockopt on a gone descriptor): nothing to proxy
    }
    client.pipe(upstream);
    upstream.pipe(client);
  };

  const checkAll = async () => {
    for (const address of list.upstreams.map((u) => u.address)) {
      const to = targets.get(address);
      if (stop.signal.aborted) return;
      if (!to) continue;
      const signal = AbortSignal.any([stop.signal, AbortSignal.timeout(o.healthCheckTimeoutMs)]);
      try {
        const ms = await probeTCP(to, o.healthCheckTimeoutMs, signal);
        update(up(list, address, policy, tierOfLatency(ms)));
      } catch {
        if (!stop.signal.aborted) update(down(list, address, policy));
      }
    }
  };

  const server: Server = createServer({ allowHalfOpen: true, pauseOnConnect: true }, (c) => void proxy(c));
  const port = await listen(server, o.host, o.port);
  // an accept failure (out of descriptors) is the next connection's problem, never PID 1's
  server.on('error', () => {});

  const checks = (async () => {
    while (!stop.signal.aborted) {
      try {
        await sleep(o.healthCheckIntervalMs, undefined, { signal: stop.signal });
      } catch {
        return;
      }
      await checkAll();
    }
  })();

  return {
    address: joinHostPort({ host: o.host, port }),
    port,
    setUpstreams(upstreams) {
      targets.clear();
      for (const u of upstreams) targets.set(joinHostPort(u), u);
      update(reconcile(list, [...targets.keys()], policy));
    },
    healthy: () => healthy(list),
    upstreams: () => list.upstreams,
    async close() {
      stop.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of open) s.destroy();
      await Promise.all([closed, checks]);
    },
  };
}

function listen(server: Server, host: string, port: number): Promise<number> {
  const address = joinHostPort({ host, port });
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(new LoadBalancerError('listen', address, e.message, { cause: e }));
    server.once('error', onError);
    server.listen({ host, port }, () => {
      server.off('error', onError);
      const a = server.address();
      resolve(typeof a === 'object' && a ? a.port : port);
    });
  });
}
