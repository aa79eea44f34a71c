import { describe, expect, it } from 'vitest';
import { endpointAddress } from '../../../src/cli/client/index.js';

describe('endpointAddress', () => {
  it.each([
    ['10.5.0.2', '10.5.0.2:50000'],
    ['10.5.0.2:6443', '10.5.0.2:6443'],
    ['node.example', 'node.example:50000'],
    ['fd00::1', '[fd00::1]:50000'],
    ['[fd00::1]', '[fd00::1]:50000'],
    ['[fd00::1]:1234', '[fd00::1]:1234'],
  ])('%s → %s', (ep, addr) => {
    expect(endpointAddress(ep)).toBe(addr);
  });
});
