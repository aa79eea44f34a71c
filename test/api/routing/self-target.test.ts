// Which `nodes` entries are this node: its own addresses with no other port, as apid serves them in place.
import { describe, expect, it } from 'vitest';
import { namesThisNode, splitTarget } from '../../../src/api/routing/self-target.js';

describe('splitTarget', () => {
  it.each([
    ['10.5.0.2', { host: '10.5.0.2' }],
    ['10.5.0.2:50001', { host: '10.5.0.2', port: 50001 }],
    ['[fd00::2]:50000', { host: 'fd00::2', port: 50000 }],
    ['[fd00::2]', { host: 'fd00::2' }],
    ['fd00::2', { host: 'fd00::2' }],
    ['node-1', { host: 'node-1' }],
  ])('%s', (target, want) => {
    expect(splitTarget(target)).toEqual(want);
  });
});

describe('namesThisNode', () => {
  const container = { bound: '127.0.0.1:41234', names: ['192.168.1.7', 'host-1'] };
  const node = { bound: '0.0.0.0:50000', names: ['10.0.2.15'] };

  it('takes a loopback target without a port as this node, whatever port it listens on', () => {
    expect(namesThisNode('127.0.0.1', container)).toBe(true);
    expect(namesThisNode('localhost', container)).toBe(true);
    expect(namesThisNode('::1', container)).toBe(true);
    expect(namesThisNode('127.0.0.1:41234', container)).toBe(true);
  });

  it('forwards a target on another port of the same host: another node', () => {
    expect(namesThisNode('127.0.0.1:50000', container)).toBe(false);
    expect(namesThisNode('192.168.1.7:50000', container)).toBe(false);
  });

  it('matches the node names and addresses, and the bound host', () => {
    expect(namesThisNode('192.168.1.7', container)).toBe(true);
    expect(namesThisNode('host-1', container)).toBe(true);
    expect(namesThisNode('10.0.2.15', node)).toBe(true);
    expect(namesThisNode('10.0.2.15:50000', node)).toBe(true);
    expect(namesThisNode('10.0.2.16', node)).toBe(false);
    // a wildcard bind is no name of its own
    expect(namesThisNode('0.0.0.0', { bound: '0.0.0.0:50000', names: [] })).toBe(false);
  });
});
