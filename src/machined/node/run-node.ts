// runNode: the node after startNode (start-node.ts) — machined's start, the COSI runtime with the
// controllers that are safe here, config acquisition (state directory, else maintenance mode), the API's
// handlers (maintenance, then mutual TLS through the apid service), and the Initialize/Boot sequences.
// startNode loads this module only once a maintenance API it started has served its first client.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { containerdSocket } from '../../../controllers/cri/containerd.js';
import { kubeletPathsUnder } from '../../../controllers/k8s/kubelet-paths.js';
import { staticPodDirsUnder } from '../../../controllers/k8s/static-pod-paths.js';
import { RUNNING_MAINTENANCE_TASK } from '../../../controllers/runtime/machine-stage.js';
import { isControlPlane } from '../../../resources/config/machine-type.js';
import { NODE_ADDRESS_CURRENT_ID, NodeAddress } from '../../../resources/network/index.js';
import {
  COMPONENTS_LAYER_ID,
  ComponentsLayer,
  KUBERNETES_LAYER_ID,
} from '../../../resources/runtime/index.js';
import { debugHandlers } from '../../api/debug/index.js';
import type { HandlerMap } from '../../api/handlers.js';
import { systemInfoHandlers } from '../../api/machine/index.js';
import { type StatefulDeps, statefulHandlers } from '../../api/machine-stateful/index.js';
import type { ApiServer } from '../../api/server.js';
import { keelVersion } from '../../api/version.js';
import { accessors } from '../../config/index.js';
import { nextTurn } from '../../cosi/controller/index.js';
import type { State } from '../../cosi/state/state.js';
import { BOOT_ID_PATH } from '../boot-id.js';
import { SYSTEM_CGROUP_BASE, setUpSystemCgroups } from '../cgroups.js';
import { EventBus, newXidSource } from '../events/index.js';
import { CONTROLLER_RUNTIME_LOG, KERNEL_LOG } from '../logging/index.js';
import { startMachined } from '../main.js';
import type { PowerAction } from '../power-action.js';
import { defaultSequences, Sequencer } from '../sequencer/index.js';
import {
  cgroup2Placer,
  containerKind,
  debugContainers,
  processKind,
  SpecHost,
  Supervisor,
  spawnWithoutFork,
} from '../services/index.js';
import { apidService } from './apid-service.js';
import { clientIssuer } from './client-issuer.js';
import { publishComponentsDir } from './components-dir.js';
import { type Acquired, acquireConfig } from './config-acquire.js';
import { nodeConfigHost } from './config-host.js';
import type { ConfigSourceInputs } from './config-sources.js';
import { persistConfig } from './config-store.js';
import { loadControllers } from './controllers.js';
import { maskEmbeddedConfig } from './embedded-config.js';
import { ephemeralVolumes } from './ephemeral-volume.js';
import { nodeEtcdHost } from './etcd/host.js';
import { etcdKind } from './etcd/kind.js';
import { publishHostIdentity } from './host-identity.js';
import { installIfAsked, nodeInstaller } from './install-node.js';
import { pumpKernelLog } from './kernel-log.js';
import { MACHINED_SERVICE, machinedService } from './machined-service.js';
import { metaHost } from './meta-host.js';
import { followMetaVolume } from './meta-volume.js';
import { kernelCmdline, machineIdentity } from './network-controllers.js';
import { registerNodeResources } from './node-resources.js';
import { wipeForReset } from './reset.js';
import { resetHost } from './reset-host.js';
import type { ResetPlan } from './reset-plan.js';
import type { Node, NodeOptions, NodeStart } from './start-node.js';
import { followStateVolume } from './state-volume.js';
import { publishMachineStatus } from './status-publisher.js';
import { portOf, trustdAddressFor, trustdService } from './trustd-service.js';
import { UDEVD_SERVICE, udevdService } from './udevd-service.js';
import { openVolumeLifecycle, teardownVolumeLifecycle } from './volume-lifecycle.js';

/** runNode brings up machined and the node around it, adopting a maintenance API that already listens. */
export async function runNode(start: NodeStart): Promise<Node> {
  const { opts, out, logs, mlog } = start;
  const container = opts.mode === 'container';
  const acquired = acquireBootConfig(opts, start.sources, mlog.line);
  const initial = acquired.kind === 'config' ? acquired.config.cfg : undefined;
  let maintenanceServer: ApiServer | undefined = start.early?.server;
  const machined = await startMachined({
    pid1: !container,
    log: mlog.line,
    ...(start.guard ? { guard: start.guard } : {}),
    ...(start.early ? { state: start.early.state } : {}),
    // container mode shares the host kernel's boot id; a fresh one per run lets a reboot be told apart
    ...(container ? { bootId: randomUUID() } : {}),
    // as upstream: `talosctl logs controller-runtime`, and the console
    controllerLog: (line) => {
      logs.serviceLog(CONTROLLER_RUNTIME_LOG).write(line);
      out(consoleLine(line));
    },
  });
  const { state, runtime, bootId } = machined;
  const trustdAddress = () => opts.trustdAddress ?? trustdAddressFor(start.address());
  // read into memory at the start; from now on out of every workload's sight, as upstream
  if (!container && start.sources.embedded.kind === 'present') maskEmbeddedConfig(mlog.line);

  await registerNodeResources(state);
  // a container node has no META partition (upstream answers its META calls as unsupported)
  const meta = container ? undefined : metaHost(state, mlog.line);

  // a node booted from its medium installs itself once configured; STATE on the new disk tells it the
  // config is kept there (docs/install.md)
  let configStored!: () => void;
  const stored = new Promise<void>((r) => {
    configStored = r;
  });
  const events = new EventBus();
  const xids = newXidSource();
  const supervisor = new Supervisor({ events, logs, log: mlog.line });
  // the services controllers ask for through ServiceSpecs (etcd, containerd …), started and restarted one
  // by one as their specs change; as PID 1 each in its own cgroup, started without forking machined
  const services = new SpecHost({
    supervisor,
    kinds: { process: processKind, container: containerKind, etcd: etcdKind({ log: mlog.line }) },
    env: container ? {} : { cgroups: cgroup2Placer(), spawn: spawnWithoutFork },
    log: mlog.line,
  });
  // as PID 1 udevd comes up with the Initialize sequence, before any config (a container has no udev);
  // it and udevadm start without forking machined, their exits delivered by machined's reaper
  // a container node keeps what a node has under /var and /system in its state directory
  const root = container ? opts.stateDir : '/';
  const etcdPaths = { dataDir: join(root, 'var/lib/etcd'), secretsDir: join(root, 'system/secrets/etcd') };
  const containerdPaths = {
    root: join(root, 'var/lib/containerd'),
    state: join(root, 'run/containerd'),
    config: join(root, 'run/containerd'),
    cniConf: join(root, 'etc/cni/net.d'),
    ...(container ? { containerMode: true } : {}),
  };
  // the kubelet's files, and the CRI it talks to (on a node, upstream's paths)
  const kubeletPaths = kubeletPathsUnder(root, containerdSocket(containerdPaths));
  const udevd = container ? undefined : udevdService({ cgroups: cgroup2Placer(), spawn: spawnWithoutFork });
  if (udevd) supervisor.load(udevd);
  // machined first, as upstream's Initialize sequence starts it (startMachined), then udevd
  supervisor.load(machinedService(state));
  const sequencer = new Sequencer({
    events,
    sequences: defaultSequences({
      services: supervisor,
      earlyServices: [MACHINED_SERVICE, ...(udevd ? [UDEVD_SERVICE] : [])],
      ...(container
        ? {}
        : {
            volumes: ephemeralVolumes(state),
            reset: { wipe: (plan, o) => wipeForReset(plan as ResetPlan, o) },
            install: nodeInstaller({ version: (opts.version ?? keelVersion()).tag, configStored: stored }),
          }),
    }),
    log: mlog.line,
  });

  // feeds that run for the node's life: status changes onto the bus, the kernel log into its ring (once
  // the controllers are registered: reading the boot backlog record by record held first the maintenance
  // API back, then the network's start)
  const stopFeeds = new AbortController();
  await publishMachineStatus(state, events, stopFeeds.signal);
  machined.addShutdownHook({ name: 'stopFeeds', run: async () => stopFeeds.abort() });
  // The controllers start once the maintenance API listens, or before a stored config is activated:
  // nothing maintenance mode answers waits for their outputs, and under emulation their first runs
  // held the API back by over a second (code runs slowest the first time).
  let controllersStarted: Promise<void> | undefined;
  const startControllers = () => {
    controllersStarted ??= (async () => {
      // their modules are evaluated in a turn of their own, after a client the API is holding turns for;
      // then one registration per turn: registering them all at once held the first API connection for
      // the whole burst
      await nextTurn();
      // a container keeps its host's network: the host's name and addresses stand in for the node's
      // without one, a stable hostname would never be named and the node would wait for it forever:
      // a random identity then holds for this boot (a STATE partition will keep one across boots)
      const found = container ? undefined : machineIdentity();
      if (!container && !found) mlog.info('machine identity: none found, a random one for this boot');
      const network = container
        ? undefined
        : { cmdline: kernelCmdline(), machineIdentity: found ?? randomUUID() };
      // watched before the controllers run, so the first address is told the moment it is there
      if (!container && opts.onAddresses)
        announceAddresses(state, opts.onAddresses, stopFeeds.signal).catch((e: unknown) =>
          mlog.error(`node addresses: ${(e as Error).message}`),
        );
      // the volume manager holds it while it writes to disks: made before it runs, so no write goes unheld
      if (!container) await openVolumeLifecycle(state);
      for (const c of await loadControllers(events, {
        services,
        etcd: etcdPaths,
        containerd: containerdPaths,
        kubelet: kubeletPaths,
        staticPods: staticPodDirsUnder(root),
        container,
        trustdPort: portOf(trustdAddress()),
        ...(network ? { network } : {}),
      })) {
        await nextTurn();
        runtime.register(c);
      }
      void pumpKernelLog(logs.serviceLog(KERNEL_LOG), stopFeeds.signal, mlog.line);
      if (container) await publishHostIdentity(state, opts.hostname);
      // a container node's layers are directories it was given (a node mounts its boot medium's layers)
      if (container && opts.componentsRoot)
        await publishComponentsDir(state, COMPONENTS_LAYER_ID, opts.componentsRoot, mlog.line);
      if (container && opts.kubernetesRoot)
        await publishComponentsDir(state, KUBERNETES_LAYER_ID, opts.kubernetesRoot, mlog.line);
      // the node's durable state follows its volumes: META once found, STATE once mounted
      if (meta) {
        const failed = (what: string) => (e: unknown) => mlog.error(`${what}: ${(e as Error).message}`);
        void followMetaVolume(state, meta, mlog.line, stopFeeds.signal).catch(failed('META'));
        void followStateVolume({
          state,
          host,
          log: mlog.line,
          signal: stopFeeds.signal,
          onStored: configStored,
        }).catch(failed('STATE'));
      }
    })();
    return controllersStarted;
  };

  const power = (action: PowerAction, sequence: 'reboot' | 'shutdown') => (actorId: string) => {
    void sequencer
      .run(sequence, { actorId, force: true })
      .catch((e: unknown) => mlog.error(`${sequence} sequence failed: ${(e as Error).message}`))
      .then(() => machined.shutdown(action));
  };
  const powerHost = { reboot: power('reboot', 'reboot'), shutdown: power('poweroff', 'shutdown') };

  const host = nodeConfigHost({
    state,
    stateDir: opts.stateDir,
    validationMode: container ? 'container' : 'metal',
    ...(initial ? { initial } : {}),
    reboot: powerHost.reboot,
    log: mlog.line,
  });
  const deps: StatefulDeps = {
    config: host,
    state,
    events: { watch: (o) => events.watch(o), newId: () => xids.next(Date.now()) },
    services: supervisor,
    logs,
    power: powerHost,
    meta: meta ?? 'unsupported',
    etcd: nodeEtcdHost({ state, checkTime: !container }),
    containerd: { socket: containerdSocket(containerdPaths) },
    ...(container
      ? {}
      : { reset: resetHost({ state, sequencer, shutdown: (a) => machined.shutdown(a), log: mlog.line }) }),
    clients: clientIssuer(host, () => {
      const address = start.address();
      return [address.slice(0, address.lastIndexOf(':'))];
    }),
  };
  const handlers: HandlerMap = {
    ...systemInfoHandlers({
      dependencyGraph: () => runtime.dependencyGraph(),
      // a container shares the host's kernel, whose boot id never changes when this node reboots
      ...(container ? { nodeFiles: new Map([[BOOT_ID_PATH, () => `${bootId}\n`]]) } : {}),
    }),
    ...statefulHandlers(deps),
    // talosctl debug: a container from the node's own images, through the layer's ctr
    ...debugHandlers(
      debugContainers({
        address: containerdSocket(containerdPaths),
        ctr: async () => {
          const layer = await state.get(ComponentsLayer.pointer(COMPONENTS_LAYER_ID)).catch(() => undefined);
          return layer ? join((layer as ComponentsLayer).spec.root, 'usr/bin/ctr') : undefined;
        },
      }),
    ),
  };
  supervisor.load(
    apidService({
      state,
      address: start.address,
      handlers,
      onQuiet: start.onApiQuiet,
      ...(opts.version ? { version: opts.version } : {}),
      // upstream's platform name and mode: Keel runs on metal, or as a container for tests
      platform: container ? { name: 'container', mode: 'container' } : { name: 'metal', mode: 'metal' },
      onListening: (a) => {
        out(`[machined] api: serving with mutual TLS on ${a}`);
        opts.onApiListening?.('mutual TLS');
      },
    }),
  );

  machined.addShutdownHook({
    name: 'stopServices',
    run: async () => {
      host.close();
      await maintenanceServer?.close({ signal: AbortSignal.timeout(5_000) });
      await supervisor.stopAll({});
    },
  });
  // a power-down that no sequence led to (a failed boot, say) still waits for the disk work under way
  if (!container)
    machined.addShutdownHook({
      name: 'teardownVolumeLifecycle',
      run: ({ signal }) => teardownVolumeLifecycle(state, { signal, log: mlog.line }),
    });

  const boot = async () => {
    // maintenance mode answers first, then runs the Initialize sequence (device coldplug) while it
    // waits for a config: reaching the API must not wait for udev, whose start also competed with it
    // for the CPU; the config is only activated once Initialize is done
    let initialized: Promise<unknown> | undefined;
    const initialize = () => {
      if (!initialized) {
        initialized = (async () => {
          // The system cgroup tree is first needed by the services this sequence starts. Made here, in a
          // turn of its own, its ~40 cgroupfs calls (0.15 s under TCG) no longer come before the
          // maintenance API's first answer.
          if (!container) {
            await nextTurn();
            setUpSystemCgroups(SYSTEM_CGROUP_BASE, process.pid, mlog.line);
          }
          return sequencer.run('initialize');
        })();
        initialized.catch(() => {}); // awaited below; this only keeps an early failure from being unhandled
      }
      return initialized;
    };
    let cfg = host.active();
    if (!cfg) {
      // as upstream, maintenance mode is a task the machine's stage is read from
      const maintenance = { type: 'machine.TaskEvent', task: RUNNING_MAINTENANCE_TASK } as const;
      events.publish({ ...maintenance, action: 'START' });
      // listening since machined's start (then waiting for these handlers), else from now
      if (maintenanceServer) maintenanceServer.serve(handlers);
      else maintenanceServer = await start.listenForConfig(state, handlers);
      // the controllers first: on a node they bring up the network no client can reach it without; the
      // Initialize sequence (udevd's coldplug) only competed with them for the CPU
      startControllers()
        .catch((e: unknown) => mlog.error(`controllers: ${(e as Error).message}`))
        .finally(() => void initialize());
      // a partial config from a source (network documents, say) applies at once, as upstream's SetConfig,
      // so a first boot can fix its network before it is sent the rest
      if (acquired.kind === 'maintenance' && acquired.partial)
        await host
          .apply(acquired.partial.cfg, 'no-reboot', { actorId: '', tryTimeoutMs: 0 })
          .catch((e: unknown) => mlog.error(`config: applying the partial config: ${(e as Error).message}`));
      cfg = await host.received;
      await maintenanceServer?.close({ signal: AbortSignal.timeout(5_000) });
      maintenanceServer = undefined;
      out('[machined] maintenance mode: configuration received, leaving maintenance mode');
      events.publish({ ...maintenance, action: 'STOP' });
    }
    await Promise.all([initialize(), startControllers()]);
    await host.activate(cfg);
    const install = (plan: unknown) => sequencer.run('install', { data: plan });
    const { signal } = stopFeeds;
    if (!container && (await installIfAsked({ state, cfg, run: install, log: mlog.line, signal })))
      return void machined.shutdown('reboot');
    // as upstream's StartAllServices: trustd on control planes only, started with the other services
    if (isControlPlane(accessors(cfg).machineType()))
      supervisor.load(trustdService({ state, address: trustdAddress }));
    // from now on the machine's stage and readiness are runtime.MachineStatusController's, from the boot
    // sequence's events, the clock, the network and the services
    await sequencer.run('boot');
    mlog.info(`node running: ${supervisor.list().length} service(s)`);
  };
  void boot().catch((e: unknown) => {
    if (supervisor.denied) return; // a shutdown overtook the boot
    mlog.error(`boot failed: ${(e as Error).message}`);
    void machined.shutdown(container ? 'poweroff' : 'reboot');
  });
  return { machined, bootId, done: machined.done };
}

/**
 * acquireBootConfig chooses the config from the sources (storing a preload first when STATE has none),
 * logs what it skipped and where the config came from, and stores one that came from elsewhere for the
 * next boot. None complete for boot means maintenance mode.
 */
function acquireBootConfig(
  opts: NodeOptions,
  sources: ConfigSourceInputs,
  log: (line: string) => void,
): Acquired {
  let inputs = sources;
  if (inputs.state.kind === 'absent' && opts.preloadConfig !== undefined) {
    persistConfig(opts.stateDir, opts.preloadConfig);
    inputs = { ...inputs, state: { kind: 'present', data: Buffer.from(opts.preloadConfig) } };
  }
  const acquired = acquireConfig(inputs, opts.mode === 'container' ? 'container' : 'metal');
  for (const note of acquired.notes) log(note);
  if (acquired.kind === 'maintenance') {
    log('config: no source holds a config complete for boot, entering maintenance mode');
    return acquired;
  }
  log(`config: loaded from ${acquired.sources.join(', ')}`);
  // as upstream, a config that came from STATE alone is not written back; a partial one is never stored,
  // since STATE's partial config would send the next boot to maintenance mode before the command line
  if (acquired.sources.length > 1 || acquired.sources[0] !== 'state')
    try {
      persistConfig(opts.stateDir, acquired.config.text);
    } catch (e) {
      log(`config: not stored for the next boot: ${(e as Error).message}`);
    }
  return acquired;
}

/** consoleLine renders a controller's JSON log line as upstream's console does: message, then fields. */
function consoleLine(json: string): string {
  const { level: _level, msg, ...fields } = JSON.parse(json) as Record<string, unknown>;
  return `[controller-runtime] ${String(msg)} ${JSON.stringify(fields)}`;
}

/** announceAddresses tells `onAddresses` the node's current addresses each time their list changes. */
async function announceAddresses(
  state: State,
  onAddresses: (prefixes: readonly string[]) => void,
  signal: AbortSignal,
): Promise<void> {
  let last = '';
  try {
    for await (const ev of await state.watch(NodeAddress.pointer(NODE_ADDRESS_CURRENT_ID), { signal })) {
      if (ev.type !== 'created' && ev.type !== 'updated' && ev.type !== 'destroyed') continue;
      const prefixes = ev.type === 'destroyed' ? [] : (ev.resource as NodeAddress).spec.addresses;
      if (prefixes.join(' ') === last) continue;
      last = prefixes.join(' ');
      onAddresses(prefixes);
    }
  } catch (e) {
    if (!signal.aborted) throw e;
  }
}
