// MetaKeys.runtime.talos.dev: one tag of the META partition, its value as text; the id is the tag in hex
// (`0x0a`), as upstream names them.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { RUNTIME_NAMESPACE } from './machine-status.js';

/** MetaKeySpec holds the value of one META tag. */
export interface MetaKeySpec {
  value: string;
}

export const MetaKey = defineResource<MetaKeySpec>({
  type: 'MetaKeys.runtime.talos.dev',
  defaultNamespace: RUNTIME_NAMESPACE,
  aliases: ['meta'],
  printColumns: [{ name: 'Value', jsonPath: '{.value}' }],
  empty: () => ({ value: '' }),
  copy: (s) => ({ value: s.value }),
  equal: (a, b) => a.value === b.value,
  proto: { value: { no: 1, kind: 'string' } },
  fromProto: (v) => ({ value: String(v.value ?? '') }),
});
export type MetaKey = ResourceOf<typeof MetaKey>;

/** metaKeyId spells a tag as the resource id: two lower-case hex digits after `0x`. */
export const metaKeyId = (tag: number): string => `0x${tag.toString(16).padStart(2, '0')}`;
