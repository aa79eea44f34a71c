// The clients of the API load benchmark (load.bench.ts), in a process of their own so the server's RSS is
// the server's: `load` runs 100 clients (25 each of get, watch, logs, version, each on its own connection)
// for a while, each calling as fast as it is answered or at a set rate, `storm` holds 1,000 watchers of one resource the server updates at 1 kHz. Prints one JSON
// line of results on stdout.
import type { Client, ServiceError } from '@grpc/grpc-js';
import { callStream, callUnary, mtls, serviceClient } from '../../api/fixtures.js';
import { percentile } from '../harness.js';

interface Args {
  readonly mode: 'load' | 'storm';
  readonly address: string;
  readonly ca: string;
  readonly cert: { crt: string; key: string };
  readonly seconds: number;
  readonly clients?: number;
  readonly watchers?: number;
  /** calls per second per client; absent: each client calls again as soon as its last call ends */
  readonly rate?: number;
}

const args = JSON.parse(process.env.KEEL_LOAD_ARGS ?? '{}') as Args;
const creds = () => mtls(args.ca, args.cert as never);
const now = () => performance.timeOrigin + performance.now();
const KIND = { namespace: 'runtime', type: 'PlainThings.test.keel.dev' };

/** a WatchResponse as the generic client decodes it: one event, or several when aggregated */
interface WatchResponse {
  readonly event?: readonly {
    readonly event_type?: string;
    readonly resource?: { readonly spec?: { readonly yaml_spec?: string } };
  }[];
}

interface Tally {
  readonly ms: number[];
  errors: number;
  firstError?: string;
}

/** watchOnce opens a Watch of the kind, takes its bootstrap up to `bootstrapped`, and cancels it */
function watchOnce(c: Client): Promise<void> {
  return new Promise((resolve, reject) => {
    const call = (c as unknown as { Watch(r: object): NodeJS.EventEmitter & { cancel(): void } }).Watch({
      ...KIND,
      api_version: 1,
      options: { bootstrap_contents: true },
    });
    call.on('data', (m: WatchResponse) => {
      if (!m.event?.some((e) => e.event_type === 'BOOTSTRAPPED')) return;
      call.removeAllListeners('error');
      call.on('error', () => {});
      call.cancel();
      resolve();
    });
    call.on('error', reject);
    call.on('end', () => reject(new Error('the watch ended before its bootstrap')));
  });
}

async function load(): Promise<object> {
  const kinds = ['get', 'watch', 'logs', 'version'] as const;
  const tallies = Object.fromEntries(kinds.map((k) => [k, { ms: [], errors: 0 } as Tally])) as Record<
    (typeof kinds)[number],
    Tally
  >;
  const calls: Record<(typeof kinds)[number], (c: Client, i: number) => Promise<unknown>> = {
    get: (c, i) => callUnary(c, 'Get', { ...KIND, id: `r${i % 100}` }),
    watch: (c) => watchOnce(c),
    logs: (c) => callStream(c, 'Logs', { namespace: 'system', id: 'machined', tail_lines: 100 }),
    version: (c) => callUnary(c, 'Version', {}),
  };
  const end = Date.now() + args.seconds * 1000;
  const n = args.clients ?? 100;
  const clients: Client[] = [];
  await Promise.all(
    Array.from({ length: n }, async (_, k) => {
      const kind = kinds[k % kinds.length]!;
      const service = kind === 'get' || kind === 'watch' ? 'cosi.resource.State' : 'machine.MachineService';
      const c = serviceClient(service, args.address, creds());
      clients.push(c);
      const t = tallies[kind];
      // the connection (TLS handshake, HTTP/2 settings) is made by an untimed first call: a hundred
      // handshakes at once are the start's cost, not a call's
      await calls[kind](c, k).catch(() => {});
      // paced: each call is due at its slot (the clients' phases spread over one interval), and its time
      // counts from the slot, so a call that waited behind a slow one is not measured as fast
      const interval = args.rate ? 1000 / args.rate : 0;
      const first = now() + Math.random() * interval;
      for (let i = 0; Date.now() < end; i++) {
        const due = first + i * interval;
        if (interval) await new Promise((r) => setTimeout(r, Math.max(0, due - now())));
        const start = interval ? due : now();
        try {
          await calls[kind](c, i + k);
          t.ms.push(now() - start);
        } catch (e) {
          t.errors++;
          t.firstError ??= (e as ServiceError).details ?? String(e);
        }
      }
    }),
  );
  for (const c of clients) c.close();
  return Object.fromEntries(
    kinds.map((k) => {
      const t = tallies[k];
      return [
        k,
        {
          calls: t.ms.length,
          perSecond: t.ms.length / args.seconds,
          p50: percentile(t.ms, 50),
          p99: percentile(t.ms, 99),
          errors: t.errors,
          ...(t.firstError ? { firstError: t.firstError } : {}),
        },
      ];
    }),
  );
}

async function storm(): Promise<object> {
  const n = args.watchers ?? 1_000;
  // a hundred watchers to a connection, as many talosctl watches share one
  const clients = Array.from({ length: Math.ceil(n / 100) }, () =>
    serviceClient('cosi.resource.State', args.address, creds()),
  );
  const latencies: number[] = [];
  const received: number[] = Array(n).fill(0);
  let errors = 0;
  let firstError: string | undefined;
  let ready = 0;
  const calls = Array.from({ length: n }, (_, w) => {
    const c = clients[Math.floor(w / 100)]! as unknown as {
      Watch(r: object): NodeJS.EventEmitter & { cancel(): void };
    };
    const call = c.Watch({ namespace: 'runtime', type: KIND.type, id: 'storm', api_version: 1 });
    let first = true;
    call.on('data', (m: WatchResponse) => {
      if (first) {
        first = false;
        if (++ready === n) process.stdout.write('ready\n');
      }
      for (const e of m.event ?? []) {
        if (e.event_type !== 'UPDATED') continue;
        const sent = Number(/value: ['"]?([\d.]+)/.exec(e.resource?.spec?.yaml_spec ?? '')?.[1]);
        received[w]!++;
        if (sent > 0 && latencies.length < 1_000_000) latencies.push(now() - sent);
      }
    });
    call.on('error', (e: ServiceError) => {
      if (e.code === 1) return; // our own cancel at the end
      errors++;
      firstError ??= e.details;
    });
    return call;
  });
  // the server starts its updates once every watcher is in, and says when it stopped
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  for (const call of calls) call.cancel();
  for (const c of clients) c.close();
  const sorted = [...received].sort((a, b) => a - b);
  return {
    watchers: n,
    delivered: received.reduce((a, b) => a + b, 0),
    perWatcherMin: sorted[0],
    perWatcherMedian: sorted[Math.floor(n / 2)],
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
    ...(firstError ? { firstError } : {}),
  };
}

const result = args.mode === 'storm' ? await storm() : await load();
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
