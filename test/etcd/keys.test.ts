// Key ranges as etcd's client builds them.
import { describe, expect, it } from 'vitest';
import { leaseKeyName, prefixEnd } from '../../src/etcd/index.js';

describe('prefixEnd', () => {
  it('increments the last byte that can be', () => {
    expect(prefixEnd(Buffer.from('talos:v1:lock/')).toString()).toBe('talos:v1:lock0');
    expect(prefixEnd(Buffer.from([0x61, 0xff, 0xff]))).toEqual(Buffer.from([0x62]));
  });
  it('runs to the end of the keyspace when no byte can be', () => {
    expect(prefixEnd(Buffer.from([0xff]))).toEqual(Buffer.from([0]));
    expect(prefixEnd(Buffer.alloc(0))).toEqual(Buffer.from([0]));
  });
});

describe('leaseKeyName', () => {
  it('names the key with the lease ID in hex, as etcd’s mutex does', () => {
    expect(leaseKeyName('m/', '7587887543423484164')).toBe('m/694d9784b55e4104');
  });
});
