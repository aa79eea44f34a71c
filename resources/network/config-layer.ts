// ConfigLayer: where a network-config spec came from; a higher layer wins when specs merge.
import { defineEnum } from './enum.js';

export const NETWORK_CONFIG_NAMESPACE = 'network-config';

/** ConfigLayer numbers, as upstream (they travel as the NetworkConfigLayer proto enum). */
export const ConfigLayer = {
  Default: 0,
  Cmdline: 1,
  Platform: 2,
  Operator: 3,
  MachineConfiguration: 4,
} as const;
export type ConfigLayer = (typeof ConfigLayer)[keyof typeof ConfigLayer];

/** ConfigLayers gives each layer its text form (`default`, `cmdline`, … `configuration`). */
export const ConfigLayers = defineEnum('ConfigLayer', {
  0: 'default',
  1: 'cmdline',
  2: 'platform',
  3: 'operator',
  4: 'configuration',
});

/** configLayerText is the layer's name as YAML and ids carry it. */
export const configLayerText = (l: number): string => ConfigLayers.text(l);

/** configLayerOf reads a layer from its text form or number; absent is the default layer. */
export const configLayerOf = (v: unknown): ConfigLayer =>
  (typeof v === 'number'
    ? v
    : v === undefined || v === null
      ? 0
      : ConfigLayers.parse(String(v))) as ConfigLayer;

/** layeredID prefixes an id with its layer, so each layer writes its own copy: `cmdline/eth0`. */
export const layeredID = (layer: number, id: string): string => `${configLayerText(layer)}/${id}`;
