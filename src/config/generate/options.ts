// What `gen config` takes: cluster name, endpoint, secrets and the versions and disks to write.
import type { SecretsBundle } from './bundle.js';

/**
 * The Kubernetes version the image ships (images/components.yaml): a generated config names the images
 * the node carries, where talosctl v1.13.0 would name 1.36.0, which nothing here could run.
 */
export const DEFAULT_KUBERNETES_VERSION = '1.34.4';
/** The other defaults are talosctl v1.13.0's (its constants and image tags), whose output Keel's configs mirror. */
export const DEFAULT_TALOS_VERSION = 'v1.13.0';
export const DEFAULT_INSTALLER_IMAGE = `ghcr.io/siderolabs/installer:${DEFAULT_TALOS_VERSION}`;
export const DEFAULT_INSTALL_DISK = '/dev/sda';
export const DEFAULT_DNS_DOMAIN = 'cluster.local';
export const DEFAULT_POD_SUBNETS = ['10.244.0.0/16'];
export const DEFAULT_SERVICE_SUBNETS = ['10.96.0.0/12'];
export const DEFAULT_KUBEPRISM_PORT = 7445;

export interface GenerateInput {
  readonly clusterName: string;
  /** the control plane endpoint URL, e.g. https://10.5.0.2:6443 */
  readonly endpoint: string;
  readonly secrets: SecretsBundle;
  /** with or without the leading v; an empty string leaves the Kubernetes images out, as upstream */
  readonly kubernetesVersion?: string;
  /**
   * the Talos release whose config contract to follow (`--talos-version`, e.g. v1.11), as upstream:
   * it selects fields and documents, not the installer image; unset means the current contract
   */
  readonly talosVersion?: string;
  readonly installDisk?: string;
  readonly installImage?: string;
  /** extra SANs for the API server and machine certificates (`--additional-sans`) */
  readonly additionalSANs?: readonly string[];
  readonly dnsDomain?: string;
  readonly discovery?: boolean;
}
