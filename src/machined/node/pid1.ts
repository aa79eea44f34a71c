// machined as /sbin/init: the whole node (startNode in pid1 mode) on /dev/console, the apply-config hint
// while the node waits for a config, and the "api ready" record in the kernel log that a boot benchmark
// times from dmesg.
import { keelVersion } from '../../api/version.js';
import { openKmsgWriter } from '../../sys/kmsg.js';
import { applyConfigHint, nodeAddresses } from './console-hint.js';
import { type ApiListening, type Node, startNode } from './start-node.js';

/** the STATE partition's mount point on a node */
export const PID1_STATE_DIR = '/system/state';
export const PID1_API_ADDRESS = '0.0.0.0:50000';

/** how long after an API starts listening PID 1 counts as idle and drops its start-up pages */
export const TRIM_AFTER_MS = 10_000;

interface Trimmed {
  readonly residentBefore: number;
  readonly residentAfter: number;
}

// loaded when first used: its node:v8 costs ~0.05 s under TCG, and nothing needs it before the API answers
const trimStartupMemory = async (): Promise<Trimmed> =>
  (await import('../memory-trim.js')).trimStartupMemory();

export interface Pid1Options {
  /** `host:port` of the API; default 0.0.0.0:50000 */
  readonly apiAddress?: string;
  /** the console; default stdout, which is /dev/console for init */
  readonly console?: (line: string) => void;
  /** a kernel log record; default /dev/kmsg, failures ignored */
  readonly kmsg?: (message: string) => void;
  /** drops start-up pages once idle; default trimStartupMemory */
  readonly trim?: () => Trimmed | Promise<Trimmed>;
}

const stdoutConsole = (line: string) => {
  process.stdout.write(`${line}\n`);
};

/** kmsgRecord writes one info record; the boot must not depend on the kernel log being writable. */
export function kmsgRecord(message: string): void {
  try {
    const w = openKmsgWriter();
    try {
      w.write('info', message);
    } finally {
      w.close();
    }
  } catch {
    // no /dev/kmsg (or no permission): the console still has everything
  }
}

/** runPid1 starts the node as PID 1; it resolves once the node runs its boot (never shuts down here). */
export function runPid1(opts: Pid1Options = {}): Promise<Node> {
  const out = opts.console ?? stdoutConsole;
  const kmsg = opts.kmsg ?? kmsgRecord;
  const address = opts.apiAddress ?? PID1_API_ADDRESS;
  const port = Number(address.slice(address.lastIndexOf(':') + 1));
  const trim = opts.trim ?? trimStartupMemory;
  // each stage's start (maintenance, then normal mode) touches code it will not run again for a long time
  const trimWhenIdle = () => {
    setTimeout(async () => {
      try {
        const r = await trim();
        const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
        out(
          `[keel] start-up pages returned: resident ${mib(r.residentBefore)} → ${mib(r.residentAfter)} MiB`,
        );
      } catch (e) {
        out(`[keel] could not return start-up pages: ${(e as Error).message}`);
      }
    }, TRIM_AFTER_MS).unref();
  };
  let maintenance = false;
  // the moment an API listens is the one the boot timeline calls ready
  const onApiListening = (mode: ApiListening) => {
    kmsg(`[keel] api ready (${mode})`);
    trimWhenIdle();
    maintenance = mode === 'maintenance';
    if (maintenance) for (const l of applyConfigHint(nodeAddresses(), port)) out(l);
  };
  // Keel's own network comes up after the API: the kernel log records when the node got its addresses
  // (the boot timeline's "address" mark), and a node still waiting for a config names them on the console
  const onAddresses = (prefixes: readonly string[]) => {
    kmsg(`[keel] node addresses: ${prefixes.length ? prefixes.join(', ') : 'none'}`);
    const v4 = prefixes.filter((p) => !p.includes(':')).map((p) => p.slice(0, p.indexOf('/')));
    // the record names the addresses already; the hint adds how to reach them
    if (maintenance && v4.length) for (const l of applyConfigHint(v4, port).slice(1)) out(l);
  };
  return startNode({
    mode: 'pid1',
    stateDir: PID1_STATE_DIR,
    apiAddress: address,
    console: out,
    onApiListening,
    onAddresses,
    version: keelVersion(),
  });
}
