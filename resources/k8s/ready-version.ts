// The spec SecretStatuses and ConfigStatuses share: whether the static pods' files are on disk, and the
// version the pods carry in an annotation. Upstream names both columns "Secrets Version".
import { obj, str } from '../network/yaml-read.js';

export interface ReadyVersionSpec {
  ready: boolean;
  version: string;
}

/** the definition fields of a ready/version status, for defineResource */
export const readyVersionFields = {
  printColumns: [
    { name: 'Ready', jsonPath: '{.ready}' },
    { name: 'Secrets Version', jsonPath: '{.version}' },
  ],
  empty: (): ReadyVersionSpec => ({ ready: false, version: '' }),
  copy: (s: ReadyVersionSpec): ReadyVersionSpec => ({ ready: s.ready, version: s.version }),
  equal: (a: ReadyVersionSpec, b: ReadyVersionSpec) => a.ready === b.ready && a.version === b.version,
  proto: { ready: { no: 1, kind: 'bool' }, version: { no: 2, kind: 'string' } },
  fromProto: (v: Record<string, unknown>): ReadyVersionSpec => ({
    ready: v.ready === true,
    version: String(v.version ?? ''),
  }),
  fromYAML: (v: unknown): ReadyVersionSpec => ({
    ready: obj(v).ready === true,
    version: str(obj(v).version),
  }),
} as const;
