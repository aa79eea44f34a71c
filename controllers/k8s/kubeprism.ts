// k8s.KubePrismController: runs KubePrism, the node's TCP load balancer for the Kubernetes API, while a
// KubePrismConfig exists: it starts listening at the config's host and port (restarted when they change),
// balances across the config's endpoints (changed in place), and publishes KubePrismStatuses
// `k8s-loadbalancer` (host:port, and whether an endpoint is usable), which goes when KubePrism stops.
import {
  KUBEPRISM_CONFIG_ID,
  KUBEPRISM_STATUSES_ID,
  KubePrismConfig,
  type KubePrismConfigSpec,
  KubePrismStatuses,
  type KubePrismStatusesSpec,
} from '../../resources/k8s/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import {
  startTCPBalancer,
  type TCPBalancer,
  type TCPBalancerOptions,
} from '../../src/sys/loadbalancer/index.js';

export const KUBEPRISM_CONTROLLER = 'k8s.KubePrismController';

/** upstream's KubePrism timings (constants.KubePrism*) */
export const KUBEPRISM_TIMING = {
  dialTimeoutMs: 15_000,
  keepAlivePeriodMs: 30_000,
  tcpUserTimeoutMs: 30_000,
  healthCheckIntervalMs: 20_000,
  healthCheckTimeoutMs: 15_000,
} as const satisfies Partial<TCPBalancerOptions>;

interface Running {
  readonly lb: TCPBalancer;
  readonly host: string;
  readonly port: number;
}

export const KubePrismController = defineController({
  name: KUBEPRISM_CONTROLLER,
  inputs: [input(KubePrismConfig, { id: KUBEPRISM_CONFIG_ID })],
  outputs: [output(KubePrismStatuses, 'exclusive')],
  async run(rt, { signal, logger }) {
    let running: Running | undefined;
    const stop = async () => {
      await running?.lb.close();
      running = undefined;
      logger.info('KubePrism is disabled');
    };
    try {
      for await (const _ of rt.events(signal)) {
        const cfg = (await rt.getOrNull(KubePrismConfig, KUBEPRISM_CONFIG_ID, { signal }))?.spec;
        if (running && !(cfg && listensAsConfigured(running, cfg))) await stop();
        if (!running && cfg) {
          const lb = await startTCPBalancer({
            host: cfg.host,
            port: cfg.port,
            ...KUBEPRISM_TIMING,
            // health turns between config changes: wake up to publish it
            onHealthChange: () => rt.queueReconcile(),
          });
          running = { lb, host: cfg.host, port: cfg.port };
          logger.info('KubePrism is enabled', { endpoint: lb.address });
        }
        if (running && cfg) running.lb.setUpstreams(cfg.endpoints);

        if (running) {
          const status = statusOf(running.lb);
          await rt.modify(KubePrismStatuses, KUBEPRISM_STATUSES_ID, () => status, { signal });
        }
        for (const r of await rt.list(KubePrismStatuses, { signal }))
          if (!running || r.metadata.id !== KUBEPRISM_STATUSES_ID) await rt.destroy(r.metadata, { signal });
        rt.resetBackoff();
      }
    } finally {
      if (running) await stop();
    }
  },
});

const listensAsConfigured = (r: Running, cfg: KubePrismConfigSpec) =>
  r.host === cfg.host && r.port === cfg.port;

/** statusOf: host:port as Go joins them, and whether a connection would find an endpoint now */
const statusOf = (lb: TCPBalancer): KubePrismStatusesSpec => ({ host: lb.address, healthy: lb.healthy() });
