// MachineService.Kubeconfig: the admin kubeconfig, minted afresh from the active config's Kubernetes CA and
// sent as one common.Data holding a tar.gz with the single file `kubeconfig` (0600), as upstream, which
// wraps it so that talosctl unpacks it as it unpacks a Copy.
import {
  accessors,
  adminKubeconfigPlan,
  type Config,
  ConfigError,
  mintAdminKubeconfig,
} from '../../config/index.js';
import { fileTarGz } from '../../sys/fs/file-tar-gz.js';
import { ApiError } from '../errors.js';
import { type Handler, serverStreamHandler } from '../handlers.js';
import type { ConfigHost } from './deps.js';

/** The archive entry talosctl looks for (helpers.ExtractFileFromTarGz("kubeconfig", …)). */
export const KUBECONFIG_ENTRY = 'kubeconfig';

/** requireControlPlane refuses a worker or a node without a config with upstream's CheckControlplane words. */
function requireControlPlane(cfg: Config | undefined): Config {
  const type = cfg ? accessors(cfg).machineType() : 'unknown';
  if (!cfg || (type !== 'controlplane' && type !== 'init'))
    throw new ApiError('unimplemented', 'kubeconfig is only available on control plane nodes');
  return cfg;
}

/** planOf reads the CA and endpoint; a gap in the config is the node's state, not the caller's mistake. */
function planOf(cfg: Config) {
  try {
    return adminKubeconfigPlan(cfg);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    const why = e.path === 'cluster.ca' ? `error getting Kubernetes CA: ${e.message}` : e.message;
    throw new ApiError('failed-precondition', why, { cause: e });
  }
}

export const kubeconfigHandler = (config: Pick<ConfigHost, 'active'>, now = () => new Date()): Handler =>
  serverStreamHandler(async (_req, send, ctx) => {
    const plan = planOf(requireControlPlane(config.active()));
    const at = now();
    const kubeconfig = await mintAdminKubeconfig(plan, { now: at, signal: ctx.signal });
    const archive = fileTarGz({
      name: KUBECONFIG_ENTRY,
      data: Buffer.from(kubeconfig),
      mode: 0o600,
      mtime: Math.floor(at.getTime() / 1000),
    });
    await send({ bytes: archive });
  });
