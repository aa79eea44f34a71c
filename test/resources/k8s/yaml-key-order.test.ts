import { describe, expect, it } from 'vitest';
import { compareYAMLKeys } from '../../../resources/k8s/yaml-key-order.js';

const sorted = (...keys: string[]) => [...keys].sort(compareYAMLKeys);

describe('compareYAMLKeys (yaml.v3’s order of map keys)', () => {
  it('orders letters by code point, shorter prefixes first', () => {
    expect(sorted('kind', 'apiVersion', 'metadata', 'Corefile', 'data')).toEqual([
      'Corefile',
      'apiVersion',
      'data',
      'kind',
      'metadata',
    ]);
    expect(sorted('token-secret', 'token-id', 'token')).toEqual(['token', 'token-id', 'token-secret']);
  });

  it('puts a non-letter before a letter, even one past the letters in ASCII', () => {
    expect(sorted('a_b', 'ab')).toEqual(['a_b', 'ab']);
    expect(sorted('kubernetes.io/name', 'k8s-app')).toEqual(['k8s-app', 'kubernetes.io/name']);
  });

  it('compares runs of digits as numbers', () => {
    expect(sorted('a10', 'a9', 'a1')).toEqual(['a1', 'a9', 'a10']);
    expect(sorted('x10y', 'x2y')).toEqual(['x2y', 'x10y']);
  });
});
