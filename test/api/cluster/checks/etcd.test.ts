import { describe, expect, it } from 'vitest';
import { etcdConsistent, etcdMembersAreControlPlanes } from '../../../../src/api/cluster/checks/etcd.js';
import type { EtcdMemberFact } from '../../../../src/api/cluster/node-facts.js';

const m = (hostname: string, id: string, ip: string, isLearner = false): EtcdMemberFact => ({
  hostname,
  id,
  peerURLs: [`https://${ip}:2380`],
  isLearner,
});
const cp1 = m('cp-1', '11', '10.5.0.2');
const cp2 = m('cp-2', '22', '10.5.0.3');
const g = (...a: [string, EtcdMemberFact[]][]) => ({
  answers: a.map(([node, value]) => ({ node, value })),
  failures: [],
});

describe('etcdConsistent (etcd members to be consistent across nodes)', () => {
  it('holds when every control plane lists the same members', () => {
    expect(etcdConsistent(g(['10.5.0.3', [cp2, cp1]], ['10.5.0.2', [cp1, cp2]]))).toBeUndefined();
  });

  it('compares with the first node by name: a different count, or a member it does not know', () => {
    expect(etcdConsistent(g(['10.5.0.3', [cp2]], ['10.5.0.2', [cp1, cp2]]))).toBe(
      '10.5.0.3: expected to have [cp-1 cp-2] members, got [cp-2]',
    );
    // a learner is another member than the voter it becomes
    expect(
      etcdConsistent(g(['10.5.0.3', [cp1, { ...cp2, isLearner: true }]], ['10.5.0.2', [cp1, cp2]])),
    ).toBe('10.5.0.3: found unexpected etcd member cp-2');
  });

  it('has nothing to compare without an answer', () => {
    expect(etcdConsistent(g())).toBe('no messages returned');
  });
});

describe('etcdMembersAreControlPlanes (etcd members to be control plane nodes)', () => {
  const cps = [
    { internalIP: '10.5.0.2', ips: ['10.5.0.2'] },
    { internalIP: '10.5.0.3', ips: ['10.5.0.3'] },
  ];
  it('holds when every peer address is a control plane’s', () => {
    expect(etcdMembersAreControlPlanes([cp1, cp2], cps)).toBeUndefined();
  });

  it('names the member addresses and the control planes otherwise', () => {
    expect(etcdMembersAreControlPlanes([cp1, m('w', '33', '10.5.0.9')], cps)).toBe(
      'etcd member ips ["10.5.0.2" "10.5.0.9"] are not subset of control plane node ips ["10.5.0.2" "10.5.0.3"]',
    );
    expect(
      etcdMembersAreControlPlanes(
        [m('v6', '44', '[fd00::2]')],
        [{ internalIP: 'fd00::2', ips: ['fd00::2'] }],
      ),
    ).toBeUndefined();
  });
});
