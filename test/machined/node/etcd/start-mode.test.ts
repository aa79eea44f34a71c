import { describe, expect, it } from 'vitest';
import {
  initialClusterOf,
  joinPlan,
  startArgs,
  startMode,
} from '../../../../src/machined/node/etcd/start-mode.js';

const m = (id: string, name: string, peer: string, isLearner = false) => ({
  id,
  name,
  peerURLs: [peer],
  clientURLs: name ? [peer.replace('2380', '2379')] : [],
  isLearner,
});

describe('startMode', () => {
  it('restarts a member with data, bootstraps when asked, joins when it knows where, else waits', () => {
    expect(startMode(false, { bootstrap: 'true', joinHost: '10.0.0.1' })).toEqual({ kind: 'restart' });
    expect(startMode(true, { bootstrap: 'true', recover: 'true' })).toEqual({
      kind: 'bootstrap',
      recover: true,
    });
    expect(startMode(true, { joinHost: '10.0.0.1' })).toEqual({ kind: 'join', host: '10.0.0.1' });
    expect(startMode(true, {})).toEqual({ kind: 'wait' });
  });

  it('gives each mode upstream’s initial-cluster arguments', () => {
    expect(startArgs({ kind: 'bootstrap', recover: false }, 'n1', 'https://10.0.0.1:2380')).toEqual([
      '--initial-cluster-state=new',
      '--initial-cluster=n1=https://10.0.0.1:2380',
    ]);
    expect(startArgs({ kind: 'join', host: 'x' }, 'n2', 'u', 'n1=a,n2=b')).toEqual([
      '--initial-cluster-state=existing',
      '--initial-cluster=n1=a,n2=b',
    ]);
    expect(startArgs({ kind: 'restart' }, 'n1', 'u')).toEqual(['--initial-cluster-state=existing']);
  });
});

describe('joinPlan and initialClusterOf', () => {
  const n1 = m('1', 'n1', 'https://10.0.0.1:2380');
  it('adds a new learner, clearing a stale member of the same name first', () => {
    expect(joinPlan([n1], 'n2', ['https://10.0.0.2:2380'])).toEqual({ kind: 'add', remove: [] });
    const stale = m('7', 'n2', 'https://10.0.0.9:2380');
    expect(joinPlan([n1, stale], 'n2', ['https://10.0.0.2:2380'])).toEqual({ kind: 'add', remove: ['7'] });
    // this node lost its data: its old member goes and it joins again
    const old = m('8', 'n2', 'https://10.0.0.2:2380');
    expect(joinPlan([n1, old], 'n2', ['https://10.0.0.2:2380'])).toEqual({ kind: 'add', remove: ['8'] });
  });

  it('takes up a learner added before that never started, and refuses a voter holding its URLs', () => {
    const added = m('9', '', 'https://10.0.0.2:2380', true);
    expect(joinPlan([n1, added], 'n2', ['https://10.0.0.2:2380'])).toEqual({
      kind: 'reuse',
      id: '9',
      remove: [],
    });
    const other = m('5', 'n5', 'https://10.0.0.2:2380');
    expect(joinPlan([n1, other], 'n2', ['https://10.0.0.2:2380'])).toMatchObject({
      kind: 'refuse',
      reason: 'member n5 already uses peer URLs https://10.0.0.2:2380',
    });
  });

  it('lists started members by name and the new one by its own, leaving other unstarted ones out', () => {
    const self = m('9', '', 'https://10.0.0.2:2380', true);
    const pending = m('4', '', 'https://10.0.0.3:2380', true);
    expect(initialClusterOf([n1, self, pending], '9', 'n2')).toBe(
      'n1=https://10.0.0.1:2380,n2=https://10.0.0.2:2380',
    );
  });
});
