// A fuzz campaign against a node's API: random and mutated protobuf messages to every RPC it serves,
// mutated machine configs to ApplyConfiguration (as dry runs), random bytes to its TLS port, in plain TCP
// and inside TLS; the same for trustd's Certificate and port when the target has one (a control plane). Every call must end in a well-formed status (or a stream still open when the case's
// time is up), never in a JavaScript error leaking as INTERNAL; the caller checks the node stayed up.
// Plain code, no test framework: the unit test and the benchmark both run it.
import { connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { type ChannelCredentials, Client, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { API_SERVICES, type ApiServiceName, loadApiProto } from '../../../src/api/proto.js';
import { newCSRAndKey } from '../../../src/pki/index.js';
import { TOKEN_METADATA_KEY } from '../../../src/trustd/token.js';
import { sniOptions } from '../fixtures.js';
import { mutatedConfig } from './config.js';
import { Rng } from './random.js';
import { type Definitions, mutate, wellShaped } from './wire.js';

export interface FuzzTarget {
  /** host:port of the node's API */
  readonly address: string;
  /** mutual TLS as os:admin, and as os:reader */
  readonly admin: ChannelCredentials;
  readonly reader: ChannelCredentials;
  /** a valid machine config, the seed of the mutated ones */
  readonly config: string;
  /** a control plane's trustd: its address, TLS trusting the OS CA, the CA itself and the machine token */
  readonly trustd?: {
    readonly address: string;
    readonly creds: ChannelCredentials;
    readonly ca: string;
    readonly token: string;
  };
}

export interface FuzzOptions {
  readonly seed: number;
  /** at most this many cases … */
  readonly cases: number;
  /** … and no new case after this long */
  readonly budgetMs: number;
  /** cases in flight at once */
  readonly concurrency?: number;
}

export interface FuzzReport {
  readonly seed: number;
  readonly cases: number;
  readonly ms: number;
  /** how the cases ended: a status name, OK, `open` (a stream still running at its time), `tcp …` */
  readonly outcomes: Readonly<Record<string, number>>;
  /** how trustd's cases ended (also counted in outcomes) */
  readonly trustd: Readonly<Record<string, number>>;
  /** each case that ended wrong, with what replays it: the seed and the case's number */
  readonly failures: readonly string[];
  /** per refusal, the distinct messages (numbers cut out) it came with, to read what the refusals were */
  readonly messages: Readonly<Record<string, readonly string[]>>;
}

/**
 * Methods that change the node (power, etcd membership, services, disks, images, META, COSI writes): they
 * are sent as os:reader, so they are refused before their handlers act. Their requests are parsed by
 * nothing on that path; the rest, as os:admin, reach their handlers' parsers.
 */
const CHANGES_THE_NODE = new Set([
  'Bootstrap',
  'EtcdRemoveMemberByID',
  'EtcdLeaveCluster',
  'EtcdForfeitLeadership',
  'EtcdRecover',
  'EtcdAlarmDisarm',
  'EtcdDefragment',
  'EtcdDowngradeEnable',
  'EtcdDowngradeCancel',
  'Reboot',
  'Restart',
  'Rollback',
  'Reset',
  'ServiceRestart',
  'ServiceStart',
  'ServiceStop',
  'Shutdown',
  'Upgrade',
  'MetaWrite',
  'MetaDelete',
  'ImagePull',
  'Pull',
  'Import',
  'Remove',
  'Install',
  'ContainerRun',
  'BlockDeviceWipe',
  'PacketCapture',
  'Create',
  'Update',
  'Destroy',
  'Teardown',
  'TeardownAndDestroy',
]);

/** what a JavaScript error looks like when it leaks into a status: a bug, not a refusal */
const LEAKED =
  /ERR_[A-Z_]{4,}|The value of "|The argument '|argument must be|Metadata string value|TypeError|RangeError|ReferenceError|SyntaxError|Cannot read propert|is not a function|is not iterable|undefined is not|Maximum call stack/;

const UNARY_MS = 15_000;
const STREAM_MS = 3_000;
const SOCKET_MS = 2_000;

interface Method {
  readonly path: string;
  readonly short: string;
  readonly requestStream: boolean;
  readonly responseStream: boolean;
  readonly requestTypeName: string;
  readonly descriptor: { field: never[] };
  readonly serialize: (o: object) => Buffer;
}

function methods(services: readonly ApiServiceName[] = API_SERVICES): Method[] {
  const proto = loadApiProto();
  return services.flatMap((service) =>
    Object.entries(proto.services.get(service)!).map(([short, def]) => {
      const req = (def as unknown as { requestType: { type: { name: string; field: never[] } } }).requestType;
      const path = def.path;
      return {
        path,
        short,
        requestStream: def.requestStream,
        responseStream: def.responseStream,
        // the request's package is the service's; its descriptor's name is the short type name
        requestTypeName: `${service.slice(0, service.lastIndexOf('.'))}.${req.type.name}`,
        descriptor: req.type,
        serialize: def.requestSerialize as (o: object) => Buffer,
      };
    }),
  );
}

const pass = (b: Buffer) => b;
const statusName = (code: number) => status[code] ?? `code ${code}`;

/** call makes one call and says how it ended; a stream ends well at its first message */
function call(
  client: Client,
  m: Method,
  messages: readonly Buffer[],
  md = new Metadata(),
): Promise<{ outcome: string; details?: string }> {
  const deadline = Date.now() + (m.responseStream || m.requestStream ? STREAM_MS : UNARY_MS);
  return new Promise((resolve) => {
    let settled = false;
    const end = (outcome: string, details?: string) => {
      if (settled) return;
      settled = true;
      resolve(details === undefined ? { outcome } : { outcome, details });
    };
    const failed = (err: ServiceError) => {
      // the client's own deadline on a stream: it was still open, which a watch or a follow is
      if (err.code === status.DEADLINE_EXCEEDED && (m.responseStream || m.requestStream)) end('open');
      else if (err.code === status.CANCELLED && settled) return;
      else end(statusName(err.code), err.details);
    };
    if (!m.requestStream && !m.responseStream) {
      client.makeUnaryRequest(m.path, pass, pass, messages[0]!, md, { deadline }, (err) =>
        err ? failed(err) : end('OK'),
      );
      return;
    }
    if (!m.requestStream) {
      const s = client.makeServerStreamRequest(m.path, pass, pass, messages[0]!, md, { deadline });
      s.on('data', () => {
        end('OK');
        s.cancel();
      });
      s.on('error', failed);
      s.on('end', () => end('OK'));
      return;
    }
    if (!m.responseStream) {
      const s = client.makeClientStreamRequest(m.path, pass, pass, md, { deadline }, (err) =>
        err ? failed(err) : end('OK'),
      );
      for (const msg of messages) s.write(msg);
      s.end();
      return;
    }
    const s = client.makeBidiStreamRequest(m.path, pass, pass, md, { deadline });
    s.on('data', () => {
      end('OK');
      s.cancel();
    });
    s.on('error', failed);
    s.on('end', () => end('OK'));
    for (const msg of messages) s.write(msg);
    s.end();
  });
}

/** garbage sends random bytes to a TLS port, plainly or inside TLS, and sees the server hang up or wait */
function garbage(address: string, rng: Rng): Promise<{ outcome: string }> {
  const [host, port] = [
    address.slice(0, address.lastIndexOf(':')),
    Number(address.slice(address.lastIndexOf(':') + 1)),
  ];
  const inTls = rng.chance(0.5);
  const bytes = rng.bytes(1 + rng.size(64 << 10));
  return new Promise((resolve) => {
    const socket = inTls
      ? tlsConnect({ host, port, rejectUnauthorized: false, ALPNProtocols: ['h2'] })
      : tcpConnect({ host, port });
    const kind = inTls ? 'tls' : 'tcp';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ outcome: `${kind} held` });
    }, SOCKET_MS);
    socket.once(inTls ? 'secureConnect' : 'connect', () => socket.write(bytes));
    socket.on('data', () => {});
    socket.once('error', () => {});
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ outcome: `${kind} closed` });
    });
  });
}

/** the worker a well-formed CSR asks for */
const WORKER = { commonName: 'fuzz-worker', dnsNames: ['fuzz-worker'], ipAddresses: ['127.0.0.1'] };

/** the ApplyConfigurationRequest field that makes it a dry run, appended last so it wins */
const DRY_RUN = Buffer.from([0x28, 0x01]);

/** fuzz runs one campaign and reports it; it throws only if it cannot start */
export async function fuzz(target: FuzzTarget, opts: FuzzOptions): Promise<FuzzReport> {
  const all = methods();
  const defs = loadApiProto().packageDefinition as unknown as Definitions;
  const apply = all.find((m) => m.path === '/machine.MachineService/ApplyConfiguration')!;
  const [certificate] = methods(['securityapi.SecurityService']);
  // a CSR trustd would sign, so that a case with the right token reaches the signing too
  const csr = target.trustd ? Buffer.from((await newCSRAndKey(target.trustd.ca, WORKER)).csr) : undefined;
  const trustd = target.trustd
    ? new Client(target.trustd.address, target.trustd.creds, sniOptions(target.trustd.address))
    : undefined;
  const admin = new Client(target.address, target.admin, sniOptions(target.address));
  const reader = new Client(target.address, target.reader, sniOptions(target.address));
  const outcomes: Record<string, number> = {};
  const trustdOutcomes: Record<string, number> = {};
  const failures: string[] = [];
  const messages: Record<string, Set<string>> = {};
  const start = Date.now();
  let next = 0;

  const runCase = async (n: number) => {
    // each case has its own generator, seeded from the campaign's seed and its number: replayable alone
    const rng = new Rng((opts.seed * 0x9e3779b1 + n * 0x85ebca77) >>> 0);
    const r = rng.int(100);
    let what: string;
    let result: { outcome: string; details?: string };
    const toTrustd = target.trustd !== undefined && trustd !== undefined && r >= 90;
    if (toTrustd) {
      if (r < 94) {
        what = 'garbage on the trustd port';
        result = await garbage(target.trustd.address, rng);
      } else {
        const m = certificate!;
        const valid = () => m.serialize({ csr: csr! });
        const shaped = () => wellShaped(rng, defs, m.requestTypeName, m.descriptor);
        // by tenths: a CSR it signs, the same mutated, well-shaped, well-shaped mutated, random bytes
        const kinds = [
          valid,
          valid,
          () => mutate(rng, valid()),
          () => mutate(rng, valid()),
          shaped,
          shaped,
          shaped,
          () => mutate(rng, shaped()),
          () => mutate(rng, shaped()),
          () => rng.bytes(rng.size(4096)),
        ];
        const message = kinds[rng.int(10)]!();
        const md = new Metadata();
        const token = rng.int(4);
        // mostly the right token, so the request itself is what is fuzzed; else none, a wrong or a raw one
        if (token < 3) md.set(TOKEN_METADATA_KEY, rng.chance(0.8) ? target.trustd.token : 'x');
        what = `${m.path} on trustd`;
        result = await call(trustd, m, [message], md);
      }
    } else if (r < 10) {
      what = 'garbage on the API port';
      result = await garbage(target.address, rng);
    } else if (r < 25) {
      const data = Buffer.from(mutatedConfig(rng, target.config));
      what = `${apply.path} with a mutated config`;
      result = await call(admin, apply, [
        apply.serialize({
          data,
          mode: rng.pick(['AUTO', 'NO_REBOOT', 'REBOOT', 'STAGED', 'TRY']),
          dry_run: true,
        }),
      ]);
    } else {
      const m = rng.pick(all);
      const shaped = () => wellShaped(rng, defs, m.requestTypeName, m.descriptor);
      const message = () => {
        const k = rng.int(10);
        return k < 6 ? shaped() : k < 9 ? mutate(rng, shaped()) : rng.bytes(rng.size(4096));
      };
      const messages = m.requestStream ? Array.from({ length: 1 + rng.int(3) }, message) : [message()];
      if (m === apply) messages[0] = Buffer.concat([messages[0]!, DRY_RUN]);
      const client = CHANGES_THE_NODE.has(m.short) ? reader : admin;
      what = `${m.path} as ${client === reader ? 'os:reader' : 'os:admin'}`;
      result = await call(client, m, messages);
    }
    outcomes[result.outcome] = (outcomes[result.outcome] ?? 0) + 1;
    if (toTrustd) trustdOutcomes[result.outcome] = (trustdOutcomes[result.outcome] ?? 0) + 1;
    if (result.details !== undefined) {
      const seen = messages[result.outcome] ?? new Set();
      seen.add(`${what.split(' ')[0]}: ${result.details.replace(/\d+/g, 'N').slice(0, 160)}`);
      messages[result.outcome] = seen;
    }
    const replay = `case ${n} (seed ${opts.seed})`;
    if (result.outcome === 'DEADLINE_EXCEEDED')
      failures.push(`${replay}: ${what}: no answer within ${UNARY_MS} ms`);
    else if (result.outcome === 'UNKNOWN' || LEAKED.test(result.details ?? ''))
      failures.push(`${replay}: ${what}: ${result.outcome}: ${(result.details ?? '').slice(0, 300)}`);
  };

  const worker = async () => {
    while (next < opts.cases && Date.now() - start < opts.budgetMs) await runCase(next++);
  };
  try {
    await Promise.all(Array.from({ length: opts.concurrency ?? 8 }, worker));
  } finally {
    admin.close();
    reader.close();
    trustd?.close();
  }
  const distinct = Object.fromEntries(Object.entries(messages).map(([k, v]) => [k, [...v].sort()]));
  return {
    seed: opts.seed,
    cases: next,
    ms: Date.now() - start,
    outcomes,
    trustd: trustdOutcomes,
    failures,
    messages: distinct,
  };
}
