// startNode: a whole node, as PID 1 or in a container — PID 1's guard first, then config acquisition
// (state directory, embedded config, kernel command line, else maintenance mode), and the rest of the node (run-node.ts: machined's start, the
// COSI runtime and controllers, the API's handlers, the Initialize/Boot sequences).
//
// Without a config source the node waits in maintenance mode, whose API listens as soon as PID 1 is
// guarded: Version answers at once, other calls wait for the handlers, and the rest of the node is loaded
// (its modules evaluated) and started once the first client has been served or nobody came within a
// second. So this module imports only what that API needs: under TCG the first answer came ≈ 0.7 s
// sooner than after machined's start, the resources and the handlers, and ≈ 0.3 s more without their
// modules' evaluation.
import type { HandlerMap } from '../../api/handlers.js';
import { type ApiServer, startApiServer } from '../../api/server.js';
import type { VersionInfo } from '../../api/version.js';
import type { State } from '../../cosi/state/state.js';
import { LoggingManager, MACHINED_LOG, machinedLogger } from '../logging/index.js';
import type { Machined } from '../main.js';
import { newNodeState } from '../node-state.js';
import { guardPid1, type Pid1Guard } from '../pid1-guard.js';
import type { PowerAction } from '../power-action.js';
import { type ConfigSourceInputs, mayHoldConfig, readConfigSources } from './config-sources.js';
import { nodeAddresses } from './console-hint.js';
import { quietTrim } from './quiet-trim.js';

export type NodeMode = 'container' | 'pid1';

export interface NodeOptions {
  readonly mode: NodeMode;
  /** where `config.yaml` lives (the STATE partition on a real node) */
  readonly stateDir: string;
  /** `host:port`; default 127.0.0.1:50000 in container mode, 0.0.0.0:50000 as PID 1 */
  readonly apiAddress?: string;
  /**
   * `host:port` trustd listens on (control planes) and whose port a worker asks its control planes on;
   * default the API's host on the port after the API's (50001 beside 50000)
   */
  readonly trustdAddress?: string;
  /** config text to store when the state directory has none yet */
  readonly preloadConfig?: string;
  /** the console: maintenance hints and machined's log lines */
  readonly console?: (line: string) => void;
  readonly version?: VersionInfo;
  /** told when an API starts listening: maintenance mode, then mutual TLS once configured */
  readonly onApiListening?: (mode: ApiListening) => void;
  /**
   * told each time the node's current addresses change (prefixes such as `10.0.2.15/24`, from the network
   * controllers' NodeAddress; PID 1 only: a container keeps its host's network)
   */
  readonly onAddresses?: (prefixes: readonly string[]) => void;
  /**
   * the root the components layer is laid out under (`usr/bin/etcd` …); default `/`, where the layer is
   * mounted on a node. Container mode may point at another tree.
   */
  readonly componentsRoot?: string;
  /** container mode: the tree Kubernetes' layer is laid out under (`usr/bin/kubelet` …) */
  readonly kubernetesRoot?: string;
  /** container mode: the node's hostname instead of the host's (each node of a test cluster needs its own) */
  readonly hostname?: string;
}

export type ApiListening = 'maintenance' | 'mutual TLS';

export interface Node {
  readonly machined: Machined;
  readonly bootId: string;
  /** resolves with the power action once the node has shut down (never as PID 1) */
  readonly done: Promise<PowerAction>;
}

/** NodeStart is what startNode hands the rest of the node (runNode). */
export interface NodeStart {
  readonly opts: NodeOptions;
  readonly out: (line: string) => void;
  readonly logs: LoggingManager;
  readonly mlog: ReturnType<typeof machinedLogger>;
  /** PID 1's guard, installed first thing (absent in container mode) */
  readonly guard?: Pid1Guard;
  /** what each config source held when the node started (read raw; runNode decodes and chooses) */
  readonly sources: ConfigSourceInputs;
  /** the maintenance API listening since before machined's start, and the state it serves */
  readonly early?: { readonly server: ApiServer; readonly state: State };
  /** the API's address: the configured one, then the one a maintenance API bound */
  readonly address: () => string;
  /** starts a maintenance API on `state`; 'later' defers its handlers (ApiServer.serve) */
  readonly listenForConfig: (state: State, handlers: HandlerMap | 'later') => Promise<ApiServer>;
  /** every API's listener for a quiet moment after its clients (quiet-trim.ts) */
  readonly onApiQuiet: () => void;
}

const stdoutConsole = (line: string) => {
  process.stdout.write(`${line}\n`);
};

export async function startNode(opts: NodeOptions): Promise<Node> {
  const out = opts.console ?? stdoutConsole;
  const container = opts.mode === 'container';
  const logs = new LoggingManager();
  const mlog = machinedLogger(logs.serviceLog(MACHINED_LOG), { mirror: out, prefix: '[machined]' });
  // whatever happens from here on ends in reboot(2) when we are PID 1, never in an exit
  const guard = container ? undefined : guardPid1(mlog.line);
  let address = opts.apiAddress ?? (container ? '127.0.0.1:50000' : '0.0.0.0:50000');
  const onApiQuiet = quietTrim({ log: mlog.line });
  const listenForConfig = async (state: State, handlers: HandlerMap | 'later') => {
    const server = await startApiServer({
      address,
      // a wildcard bind says nothing to the reader of the console: name the node's own addresses
      ...(address.startsWith('0.0.0.0:') ? { advertise: nodeAddresses() } : {}),
      // a node whose network is Keel's to bring up has no address yet: no remote client can come before
      // the network controllers run, so they start at once instead of waiting for one
      ...(opts.mode !== 'container' && nodeAddresses().length === 0 ? { firstClientHoldMs: 0 } : {}),
      mode: 'maintenance',
      state,
      onQuiet: onApiQuiet,
      ...(handlers === 'later' ? { deferHandlers: true } : { handlers }),
      ...(opts.version ? { version: opts.version } : {}),
    });
    address = server.address;
    for (const line of server.consoleLines ?? []) out(`[machined] ${line}`);
    opts.onApiListening?.('maintenance');
    return server;
  };

  // no source holds a config to read (an invalid one also means maintenance mode, found by runNode: its
  // API then listens once the node has started)
  const sources = readConfigSources({ mode: opts.mode, stateDir: opts.stateDir });
  let early: NodeStart['early'];
  if (opts.preloadConfig === undefined && !mayHoldConfig(sources)) {
    const state = newNodeState();
    early = { server: await listenForConfig(state, 'later'), state };
    await early.server.firstClient;
  }
  try {
    const { runNode } = await import('./run-node.js');
    return await runNode({
      opts,
      out,
      logs,
      mlog,
      ...(guard ? { guard } : {}),
      ...(early ? { early } : {}),
      sources,
      address: () => address,
      listenForConfig,
      onApiQuiet,
    });
  } catch (e) {
    // as PID 1 the emergency path follows; a container node must not leave its port bound
    await early?.server.close({ signal: AbortSignal.timeout(5_000) });
    throw e;
  }
}
