// k8s.ControlPlaneAPIServerController: APIServerConfig `kube-apiserver` (controlplane) from the machine
// config on a control-plane node, as upstream's: the image, the endpoint, etcd on loopback, the local port,
// the service ranges, and the user's extra arguments, volumes, environment and resources.

import { MachineConfig } from '../../resources/config/machine-config.js';
import { APISERVER_ID, APIServerConfig, type APIServerConfigSpec } from '../../resources/k8s/index.js';
import { accessors, type Config } from '../../src/config/index.js';
import { transformController } from '../../src/cosi/controller/generic/index.js';
import { activeConfigMap } from '../config/active-config-map.js';
import { configOf } from '../config/config-of.js';
import {
  cloudProviderOf,
  controlPlaneOf,
  extraArgsOf,
  extraVolumesOf,
  imageOr,
  resourcesOf,
  serviceCIDRsOf,
} from './internal/control-plane.js';

const ETCD_CLIENT_PORT = 2379;
const DEFAULT_CONTROL_PLANE_PORT = 6443;

export function apiServerConfigOf(cfg: Config): APIServerConfigSpec | undefined {
  const v1 = controlPlaneOf(cfg);
  if (!v1) return undefined;
  const c = v1.cluster.apiServer;
  return {
    image: imageOr(c?.image, 'registry.k8s.io/kube-apiserver'),
    cloudProvider: cloudProviderOf(v1),
    controlPlaneEndpoint: accessors(cfg).controlPlaneEndpoint() ?? '',
    etcdServers: [`https://127.0.0.1:${ETCD_CLIENT_PORT}`],
    localPort: v1.cluster.controlPlane?.localAPIServerPort || DEFAULT_CONTROL_PLANE_PORT,
    serviceCIDRs: serviceCIDRsOf(v1),
    extraArgs: extraArgsOf(c),
    extraVolumes: extraVolumesOf(c),
    environmentVariables: { ...(c?.env ?? {}) },
    // the pod's own IP, filled in by the kubelet; none on a node that does not register
    advertisedAddress: v1.machine.kubelet?.skipNodeRegistration ? '' : '$(POD_IP)',
    resources: resourcesOf(c),
  };
}

export const ControlPlaneAPIServerController = transformController({
  name: 'k8s.ControlPlaneAPIServerController',
  input: MachineConfig,
  output: APIServerConfig,
  mapOptional: activeConfigMap(APISERVER_ID, true),
  transform: (_rt, cfg, out) => {
    // the map let only a control plane's config through
    out.spec = apiServerConfigOf(configOf(cfg.spec))!;
  },
});
