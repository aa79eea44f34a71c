import { describe, expect, it } from 'vitest';
import { ConfigErrors } from '../../../src/config/errors.js';
import { gatesOf, parseContract } from '../../../src/config/generate/contract.js';

describe('version contracts', () => {
  it('parses as upstream: with or without v, with or without a patch', () => {
    expect(parseContract('v1.11')).toEqual({ major: 1, minor: 11 });
    expect(parseContract('1.12.3')).toEqual({ major: 1, minor: 12 });
    expect(parseContract('v2.0.0-alpha.1')).toEqual({ major: 2, minor: 0 });
  });

  it('rejects what is not a version, and contracts older than v1.7', () => {
    for (const v of ['', 'latest', 'v1', 'v1.11x', 'v1.6', 'v0.14.2'])
      expect(() => parseContract(v)).toThrow(ConfigErrors);
    expect(() => parseContract('v1.6')).toThrow(/older than the oldest contract generated \(v1\.7\)/);
  });

  it('gates each field on the release that changed it', () => {
    const at = (v?: string) => gatesOf(v === undefined ? undefined : parseContract(v));
    expect(Object.values(at()).filter((g) => !g)).toEqual([false]); // only populateClusterSANsFromEndpoint
    expect(at('v1.14')).toEqual(at());
    expect(at('v1.13')).toEqual(at());
    expect(at('v1.12')).toEqual({ ...at(), kubeSpanMultidocConfig: false });
    const v111 = {
      ...at('v1.12'),
      multidocNetworkConfigSupported: false,
      hideDisablePSP: false,
      hideRBACAndKeyUsage: false,
      populateClusterSANsFromEndpoint: true,
      grubUseUKICmdlineDefault: false,
    };
    expect(at('v1.11')).toEqual(v111);
    expect(at('v1.8')).toEqual(v111);
    expect(at('v1.7')).toEqual({
      ...v111,
      clusterNameForWorkers: false,
      hostDNSForwardKubeDNSToHost: false,
      addExcludeFromExternalLoadBalancer: false,
    });
  });
});
