// secrets.RootEtcdController: EtcdRootSecrets(secrets/etcd) from the machine config, control plane only.
import { MachineConfig } from '../../resources/config/machine-config.js';
import { ETCD_ROOT_ID, EtcdRoot, type EtcdRootSpec } from '../../resources/secrets/index.js';
import { type Config, v1alpha1Of } from '../../src/config/index.js';
import { transformController } from '../../src/cosi/controller/generic/index.js';
import { activeConfigMap } from '../config/active-config-map.js';
import { configOf } from '../config/config-of.js';
import { configRef, pemPair } from './internal/config.js';
import { SecretsError } from './internal/errors.js';

/** RootEtcdController publishes the etcd CA of a control plane node. */
export const RootEtcdController = transformController({
  name: 'secrets.RootEtcdController',
  input: MachineConfig,
  output: EtcdRoot,
  mapOptional: activeConfigMap(ETCD_ROOT_ID, true),
  transform: (_rt, cfg, out) => {
    Object.assign(out.spec, etcdRootOf(configOf(cfg.spec)));
  },
});

/** etcdRootOf reads cluster.etcd.ca; a control plane config without it is broken. */
export function etcdRootOf(cfg: Config): EtcdRootSpec {
  const etcdCA = pemPair(v1alpha1Of(cfg)?.cluster?.etcd?.ca);
  if (!etcdCA) throw new SecretsError('missing-secret', configRef, 'missing cluster.etcd.ca secret');
  return { etcdCA };
}
