// Test resource types shared by the conformance suites and by every backend's tests.
import type { ID, Namespace } from '../resource/kind.js';
import { defaultRegistry } from '../resource/registry.js';
import { defineResource, type ResourceOf } from '../resource/typed.js';

/** Namespaces the upstream conformance suites use. */
export const TEST_NAMESPACE = 'test';
export const DEFAULT_NAMESPACE = 'default';

export interface IntSpec {
  value: number;
}

export interface StrSpec {
  value: string;
}

/** PathSpec is empty: a PathResource is all metadata, its id being the path. */
export type PathSpec = Record<string, never>;

/** PathResource stands for a filesystem path, as upstream's state conformance resource. */
export const PathResource = defineResource<PathSpec>({
  type: 'PathResources.test.cosi.dev',
  defaultNamespace: DEFAULT_NAMESPACE,
  empty: () => ({}),
  proto: {},
});
export type PathResource = ResourceOf<typeof PathResource>;

/** IntResource holds an integer, as upstream's runtime conformance resource. */
export const IntResource = defineResource<IntSpec>({
  type: 'IntResources.test.cosi.dev',
  defaultNamespace: TEST_NAMESPACE,
  empty: () => ({ value: 0 }),
  copy: (s) => ({ value: s.value }),
  equal: (a, b) => a.value === b.value,
  proto: { value: { no: 1, kind: 'sint64' } },
});
export type IntResource = ResourceOf<typeof IntResource>;

/** StrResource holds a string. */
export const StrResource = defineResource<StrSpec>({
  type: 'StrResources.test.cosi.dev',
  defaultNamespace: TEST_NAMESPACE,
  empty: () => ({ value: '' }),
  copy: (s) => ({ value: s.value }),
  equal: (a, b) => a.value === b.value,
  proto: { value: { no: 1, kind: 'string' } },
});
export type StrResource = ResourceOf<typeof StrResource>;

/** SentenceResource holds a string built from other resources. */
export const SentenceResource = defineResource<StrSpec>({
  type: 'SentenceResources.test.cosi.dev',
  defaultNamespace: TEST_NAMESPACE,
  empty: () => ({ value: '' }),
  copy: (s) => ({ value: s.value }),
  equal: (a, b) => a.value === b.value,
  proto: { value: { no: 1, kind: 'string' } },
});
export type SentenceResource = ResourceOf<typeof SentenceResource>;

// Decoders (gRPC, durable stores) find the test types like any registered type.
defaultRegistry.register(PathResource);
defaultRegistry.register(IntResource);
defaultRegistry.register(StrResource);
defaultRegistry.register(SentenceResource);

export const newPath = (ns: Namespace, path: ID): PathResource => PathResource.new(ns, path);
export const newInt = (ns: Namespace, id: ID, value: number): IntResource =>
  IntResource.new(ns, id, { value });
export const newStr = (ns: Namespace, id: ID, value: string): StrResource =>
  StrResource.new(ns, id, { value });
export const newSentence = (ns: Namespace, id: ID, value: string): SentenceResource =>
  SentenceResource.new(ns, id, { value });
