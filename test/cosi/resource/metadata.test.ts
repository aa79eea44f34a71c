import { describe, expect, it } from 'vitest';
import { Metadata, OwnerError } from '../../../src/cosi/resource/metadata.js';
import { nextVersion, parseVersion, versionString } from '../../../src/cosi/resource/version.js';

describe('version', () => {
  it('renders, parses and advances', () => {
    expect(versionString(undefined)).toBe('undefined');
    expect(versionString(3)).toBe('3');
    expect(parseVersion('undefined')).toBeUndefined();
    expect(parseVersion('42')).toBe(42);
    expect(nextVersion(undefined)).toBe(1);
    expect(nextVersion(1)).toBe(2);
    expect(() => parseVersion('abc')).toThrow('invalid version "abc"');
    expect(() => parseVersion('-1')).toThrow('out of range');
  });
});

describe('Metadata', () => {
  it('starts running, unowned, with equal timestamps', () => {
    const md = new Metadata('ns', 'As.test.dev', 'a');
    expect(md.phase).toBe('running');
    expect(md.owner).toBe('');
    expect(md.version).toBeUndefined();
    expect(md.created).toBe(md.updated);
    expect(md.toString()).toBe('As.test.dev(ns/a@undefined)');
  });

  it('sets the owner once', () => {
    const md = new Metadata('ns', 'As.test.dev', 'a');
    md.setOwner('x');
    md.setOwner('x');
    expect(() => md.setOwner('y')).toThrow(OwnerError);
    expect(() => md.setOwner('y')).toThrow('owner is already set to "x"');
  });

  it('copies share storage until one side edits', () => {
    const md = new Metadata('ns', 'As.test.dev', 'a', { labels: { a: '1' }, finalizers: ['f'] });
    const c = md.copy();
    expect(c.equal(md)).toBe(true);
    c.labels.set('b', '2');
    c.finalizers.add('g');
    c.annotations.set('n', 'v');
    expect(md.labels.get('b')).toBeUndefined();
    expect(md.finalizers.list()).toEqual(['f']);
    expect(md.annotations.empty()).toBe(true);
    expect(c.equal(md)).toBe(false);
  });

  it('equality ignores timestamps and finalizer order', () => {
    const a = new Metadata('ns', 'As.test.dev', 'a', { version: 2, created: 1, finalizers: ['x', 'y'] });
    const b = new Metadata('ns', 'As.test.dev', 'a', { version: 2, created: 99, finalizers: ['y', 'x'] });
    expect(a.equal(b)).toBe(true);
    b.version = 3;
    expect(a.equal(b)).toBe(false);
  });

  it('compares every identity field', () => {
    const base = () => new Metadata('ns', 'As.test.dev', 'a', { version: 1, owner: 'o' });
    const edits: ((m: Metadata) => void)[] = [
      (m) => {
        m.namespace = 'x';
      },
      (m) => {
        m.type = 'Bs.test.dev';
      },
      (m) => {
        m.id = 'b';
      },
      (m) => {
        m.owner = 'p';
      },
      (m) => {
        m.phase = 'tearingDown';
      },
      (m) => m.labels.set('k', 'v'),
      (m) => m.annotations.set('k', 'v'),
      (m) => m.finalizers.add('f'),
    ];
    for (const edit of edits) {
      const m = base();
      edit(m);
      expect(m.equal(base())).toBe(false);
    }
  });
});
