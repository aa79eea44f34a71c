// Pod and service subnets: each a CIDR (host bits accepted, as upstream), and no pod subnet overlapping a
// service subnet, the lists' defaults included, IPv4 and IPv6 apart.
import { describe, expect, it } from 'vitest';
import { configText, errorsFor, type RuleCase, ruleTable } from './rule-table.js';

const subnets = (podSubnets?: string[], serviceSubnets?: string[]) => ({
  cluster: {
    network: { ...(podSubnets ? { podSubnets } : {}), ...(serviceSubnets ? { serviceSubnets } : {}) },
  },
});

const cases: RuleCase[] = [
  {
    rule: 'a pod subnet is a CIDR',
    valid: subnets(['10.244.0.0/16']),
    invalid: subnets(['10.244.0.0/33']),
    path: 'cluster.network.podSubnets[0]',
    error: '"10.244.0.0/33": invalid network address: not a CIDR',
  },
  {
    rule: 'host bits are accepted and masked, as upstream: 10.244.1.0/8 is 10.0.0.0/8',
    valid: subnets(['10.244.1.0/16'], ['10.96.0.0/12']),
    invalid: subnets(['10.244.1.0/8'], ['10.96.0.0/12']),
    path: 'cluster.network.serviceSubnets[0]',
    error: 'service subnet "10.96.0.0/12" overlaps pod subnet "10.244.1.0/8" (cluster.network.podSubnets[0])',
  },
  {
    rule: 'a service subnet inside a pod subnet',
    role: 'controlplane',
    valid: subnets(['10.244.0.0/16'], ['10.245.0.0/16']),
    invalid: subnets(['10.244.0.0/16'], ['10.244.128.0/20']),
    path: 'cluster.network.serviceSubnets[0]',
    error:
      'service subnet "10.244.128.0/20" overlaps pod subnet "10.244.0.0/16" (cluster.network.podSubnets[0])',
  },
  {
    rule: 'dual stack: each family against its own',
    valid: subnets(['10.244.0.0/16', 'fd00:10:244::/56'], ['10.96.0.0/12', 'fd00:10:96::/112']),
    invalid: subnets(['10.244.0.0/16', 'fd00:10:244::/56'], ['10.96.0.0/12', 'fd00:10:244:1::/112']),
    path: 'cluster.network.serviceSubnets[1]',
    error:
      'service subnet "fd00:10:244:1::/112" overlaps pod subnet "fd00:10:244::/56" (cluster.network.podSubnets[1])',
  },
  {
    rule: 'IPv4 and IPv6 never overlap, an IPv4-mapped prefix included',
    valid: subnets(['10.244.0.0/16'], ['::ffff:10.244.0.0/112']),
    invalid: subnets(['10.244.0.0/16'], ['::ffff:10.244.0.0/112', '10.244.0.0/24']),
    path: 'cluster.network.serviceSubnets[1]',
    error: 'service subnet "10.244.0.0/24" overlaps pod subnet "10.244.0.0/16"',
  },
  {
    rule: 'a pod subnet overlapping the default service subnet',
    valid: subnets(['10.112.0.0/16'], []),
    invalid: subnets(['10.96.0.0/16'], []),
    path: 'cluster.network.podSubnets[0]',
    error:
      'pod subnet "10.96.0.0/16" overlaps service subnet "10.96.0.0/12" (the default, as cluster.network.serviceSubnets is unset)',
  },
  {
    rule: 'a service subnet overlapping the default pod subnet',
    valid: subnets([], ['10.245.0.0/16']),
    invalid: subnets([], ['10.244.0.0/12']),
    path: 'cluster.network.serviceSubnets[0]',
    error: 'overlaps pod subnet "10.244.0.0/16" (the default, as cluster.network.podSubnets is unset)',
  },
];

describe('cluster subnets', () => {
  ruleTable(cases);

  it('judges a subnet that is not a CIDR no further: one error, not an overlap', () => {
    const errors = errorsFor(configText('worker', subnets(['10.96.0.0'], ['10.96.0.0/12'])));
    expect(errors.map((e) => e.message)).toEqual([
      'v1alpha1 cluster.network.podSubnets[0] (line 41): "10.96.0.0": invalid network address: not a CIDR',
    ]);
  });
});
