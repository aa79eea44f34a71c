import { describe, expect, it } from 'vitest';
import { cloneData, equalData } from '../../../src/cosi/resource/data.js';
import { OpaqueResource } from '../../../src/cosi/resource/opaque.js';
import { ResourceRegistry } from '../../../src/cosi/resource/registry.js';
import { equal, isTombstone, resourceString, Tombstone } from '../../../src/cosi/resource/resource.js';
import { defineResource } from '../../../src/cosi/resource/typed.js';

interface WidgetSpec {
  name: string;
  sizes: number[];
  raw?: Uint8Array;
}

const Widget = defineResource<WidgetSpec>({
  type: 'Widgets.test.keel.dev',
  defaultNamespace: 'test',
  empty: () => ({ name: '', sizes: [] }),
});

describe('typed resources', () => {
  it('builds resources with the zero spec and its definition', () => {
    const w = Widget.new('test', 'w1');
    expect(w.spec).toEqual({ name: '', sizes: [] });
    expect(w.metadata.type).toBe('Widgets.test.keel.dev');
    expect(Widget.definition.displayType).toBe('Widget');
    expect(Widget.is(w)).toBe(true);
    expect(resourceString(w)).toBe('Widgets.test.keel.dev(test/w1)');
    expect(Widget.pointer('x')).toEqual({ namespace: 'test', type: 'Widgets.test.keel.dev', id: 'x' });
  });

  it('deep-copies specs and compares them', () => {
    const w = Widget.new('test', 'w1', { name: 'a', sizes: [1, 2], raw: new Uint8Array([1]) });
    const c = w.deepCopy();
    expect(equal(w, c)).toBe(true);
    c.spec.sizes.push(3);
    expect(w.spec.sizes).toEqual([1, 2]);
    expect(equal(w, c)).toBe(false);
  });

  it('never equals another type with the same data', () => {
    const Other = defineResource<WidgetSpec>({
      type: 'Gadgets.test.keel.dev',
      defaultNamespace: 'test',
      empty: () => ({ name: '', sizes: [] }),
    });
    expect(Widget.new('t', 'a').equalSpec(Other.new('t', 'a'))).toBe(false);
  });

  it('fails at definition time on a bad type name', () => {
    expect(() => defineResource({ type: 'widget', defaultNamespace: 'x', empty: () => ({}) })).toThrow(
      'missing suffix',
    );
  });

  it('tombstones have no spec', () => {
    const t = Tombstone.of({ namespace: 'n', type: 'Widgets.test.keel.dev', id: 'a' });
    expect(isTombstone(t)).toBe(true);
    expect(() => t.spec).toThrow('has no spec');
    expect(t.equalSpec(t.deepCopy())).toBe(true);
  });

  it('opaque resources compare by bytes and yaml', () => {
    const a = OpaqueResource.of('n', 'Xs.t.dev', 'a', {
      protoSpec: new Uint8Array([1, 2]),
      yamlSpec: 'x: 1\n',
    });
    expect(a.equalSpec(a.deepCopy())).toBe(true);
    expect(
      a.equalSpec(
        OpaqueResource.of('n', 'Xs.t.dev', 'a', { protoSpec: new Uint8Array([1]), yamlSpec: 'x: 1\n' }),
      ),
    ).toBe(false);
  });

  it('the registry refuses a second handle for the same type', () => {
    const reg = new ResourceRegistry();
    reg.register(Widget);
    reg.register(Widget);
    const twin = defineResource<WidgetSpec>({
      type: Widget.type,
      defaultNamespace: 'test',
      empty: Widget.codec.empty,
    });
    expect(() => reg.register(twin)).toThrow('already registered');
    expect(reg.lookup(Widget.type)).toBe(Widget);
  });
});

describe('plain data', () => {
  it('clones and compares nested values', () => {
    const v = { a: [1, { b: new Uint8Array([1, 2]) }], d: new Date(5), m: new Map([['k', { x: 1 }]]) };
    const c = cloneData(v);
    expect(equalData(v, c)).toBe(true);
    (c.m.get('k') as { x: number }).x = 2;
    expect(equalData(v, c)).toBe(false);
    expect(equalData([1], { 0: 1 })).toBe(false);
    expect(equalData(Number.NaN, Number.NaN)).toBe(true);
    expect(equalData({ a: undefined }, {})).toBe(false);
  });
});
