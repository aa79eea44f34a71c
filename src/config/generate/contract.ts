// The version contract `gen config --talos-version` selects: which fields and documents a config for
// an older Talos carries. Gates are named after upstream's VersionContract methods, so its source maps here.
import { ConfigError, ConfigErrors } from '../errors.js';

/** VersionContract is a Talos major.minor to generate for; undefined is the current release (upstream's nil). */
export interface VersionContract {
  readonly major: number;
  readonly minor: number;
}

/**
 * The oldest contract Keel generates for. Older ones also change the secrets minted (ECDSA service
 * account key up to v1.6, AES-CBC up to v1.2) and add fields Keel does not model (k8s.gcr.io mirrors).
 */
export const OLDEST_CONTRACT: VersionContract = { major: 1, minor: 7 };

/** parseContract reads `v1.11`, `1.11` or `v1.11.3` as upstream's ParseContractFromVersion does. */
export function parseContract(version: string): VersionContract {
  const m = /^v(\d+)\.(\d+)($|\.)/.exec(`v${version.replace(/^v/, '')}`);
  if (!m) throw invalid(`error parsing version ${JSON.stringify(version)}`);
  const c = { major: Number(m[1]), minor: Number(m[2]) };
  if (!greater(c, { major: OLDEST_CONTRACT.major, minor: OLDEST_CONTRACT.minor - 1 }))
    throw invalid(
      `${version} is older than the oldest contract generated (v${OLDEST_CONTRACT.major}.${OLDEST_CONTRACT.minor})`,
    );
  return c;
}

const invalid = (detail: string) =>
  new ConfigErrors([new ConfigError('invalid', 'gen config', 'talos-version', undefined, detail)]);

/** greater is upstream's Greater: the current contract is newer than every numbered one. */
const greater = (c: VersionContract | undefined, than: VersionContract): boolean =>
  c === undefined || c.major > than.major || (c.major === than.major && c.minor > than.minor);

/** ContractGates are the upstream gates that still differ between OLDEST_CONTRACT and the current one. */
export interface ContractGates {
  readonly clusterNameForWorkers: boolean;
  readonly hostDNSForwardKubeDNSToHost: boolean;
  readonly addExcludeFromExternalLoadBalancer: boolean;
  readonly multidocNetworkConfigSupported: boolean;
  readonly hideDisablePSP: boolean;
  readonly hideRBACAndKeyUsage: boolean;
  readonly populateClusterSANsFromEndpoint: boolean;
  readonly grubUseUKICmdlineDefault: boolean;
  readonly kubeSpanMultidocConfig: boolean;
}

export function gatesOf(c: VersionContract | undefined): ContractGates {
  const after = (minor: number) => greater(c, { major: 1, minor });
  return {
    clusterNameForWorkers: after(7),
    hostDNSForwardKubeDNSToHost: after(7),
    addExcludeFromExternalLoadBalancer: after(7),
    multidocNetworkConfigSupported: after(11),
    hideDisablePSP: after(11),
    hideRBACAndKeyUsage: after(11),
    populateClusterSANsFromEndpoint: !after(11),
    grubUseUKICmdlineDefault: after(11),
    kubeSpanMultidocConfig: after(12),
  };
}
