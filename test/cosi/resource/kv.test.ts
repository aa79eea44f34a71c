import { describe, expect, it } from 'vitest';
import { Finalizers } from '../../../src/cosi/resource/finalizers.js';
import { KV } from '../../../src/cosi/resource/kv.js';

describe('KV', () => {
  it('reports whether an edit changed anything', () => {
    const kv = new KV();
    expect(kv.set('a', '1')).toBe(true);
    expect(kv.set('a', '1')).toBe(false);
    expect(kv.delete('b')).toBe(false);
    expect(kv.delete('a')).toBe(true);
    expect(kv.empty()).toBe(true);
  });

  it('treats an empty value as present', () => {
    const a = new KV({ k: '' });
    expect(a.has('k')).toBe(true);
    expect(a.equal(new KV())).toBe(false);
    expect(a.set('k', '')).toBe(false);
  });

  it('does not leak prototype keys', () => {
    const kv = new KV();
    expect(kv.get('toString')).toBeUndefined();
    expect(kv.has('constructor')).toBe(false);
  });

  it('batches edits and sorts keys', () => {
    const kv = new KV({ b: '2' });
    const before = kv.raw();
    kv.do((m) => {
      m.a = '1';
      m.c = '3';
    });
    expect(kv.keys()).toEqual(['a', 'b', 'c']);
    expect(before).toEqual({ b: '2' });
  });
});

describe('Finalizers', () => {
  it('has set semantics and copy-on-write', () => {
    const f = new Finalizers(['a', 'a', 'b']);
    expect(f.list()).toEqual(['a', 'b']);
    const c = f.copy();
    expect(c.add('a')).toBe(false);
    expect(c.add('c')).toBe(true);
    expect(f.has('c')).toBe(false);
    expect(c.remove('a')).toBe(true);
    expect(c.remove('a')).toBe(false);
    expect(c.list()).toEqual(['b', 'c']);
  });

  it('compares as sets', () => {
    expect(new Finalizers(['a', 'b']).equal(new Finalizers(['b', 'a']))).toBe(true);
    expect(new Finalizers(['a']).equal(new Finalizers(['b']))).toBe(false);
    expect(new Finalizers(['a', 'b']).equal(new Finalizers(['a', 'c']))).toBe(false);
  });
});
