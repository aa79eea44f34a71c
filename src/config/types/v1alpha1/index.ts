// The legacy v1alpha1 machine config document: interfaces and field schemas.
// Keys and their order follow upstream, so a decode/encode round trip keeps the file as written.
export type { APIServerConfig, ClusterConfig, ClusterNetworkConfig, EtcdConfig } from './cluster.js';
export { clusterSchema } from './cluster.js';
export type { V1Alpha1Config } from './config.js';
export { v1alpha1Markers, v1alpha1Schema } from './config.js';
export type { FeaturesConfig, InstallConfig, KubeletConfig, MachineConfig, MachineFile } from './machine.js';
export { machineSchema } from './machine.js';
export type { Bond, Device, DeviceSelector, NetworkConfig, Route, Vlan } from './network.js';
export { networkSchema } from './network.js';
