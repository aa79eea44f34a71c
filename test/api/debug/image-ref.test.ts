import { describe, expect, it } from 'vitest';
import { findImage, normalizeRef, pulledName } from '../../../src/api/debug/image-ref.js';
import { namespaceOf } from '../../../src/api/debug/instance.js';

const D = 'sha256:c69543ceb12f200b23b8bf641ecfd5fe34f6a0ed7a60e74bafaa5f24c0df8d40';
const box = { name: 'keel.dev/toolbox:1.35', digest: D };

describe('image references', () => {
  it('normalizes as Docker does', () => {
    expect(normalizeRef('busybox')).toBe('docker.io/library/busybox:latest');
    expect(normalizeRef('me/app:1')).toBe('docker.io/me/app:1');
    expect(normalizeRef('keel.dev/toolbox:1.35')).toBe('keel.dev/toolbox:1.35');
    expect(normalizeRef('localhost:5000/x')).toBe('localhost:5000/x:latest');
  });

  it('finds an image by name, or by repository@digest as Pull answers it', () => {
    expect(findImage('keel.dev/toolbox:1.35', [box])).toBe(box);
    expect(findImage(`keel.dev/toolbox@${D}`, [box])).toBe(box);
    expect(findImage(`keel.dev/other@${D}`, [box])).toBeUndefined();
    expect(findImage('keel.dev/toolbox:2', [box])).toBeUndefined();
  });

  it('answers Pull with the name pinned to its digest, as upstream', () => {
    expect(pulledName('keel.dev/toolbox:1.35', box)).toBe(`keel.dev/toolbox@${D}`);
    expect(pulledName(`keel.dev/toolbox@${D}`, box)).toBe(`keel.dev/toolbox@${D}`);
  });

  it('maps the instance’s namespace; unknown is invalid', () => {
    expect(namespaceOf({ driver: 'CRI', namespace: 'NS_SYSTEM' })).toBe('system');
    expect(namespaceOf({ namespace: 'NS_CRI' })).toBe('k8s.io');
    expect(() => namespaceOf({})).toThrow('invalid namespace NS_UNKNOWN');
  });
});
