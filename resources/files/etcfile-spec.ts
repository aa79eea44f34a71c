// EtcFileSpecs.files.talos.dev: the contents an /etc file should have (hosts, resolv.conf …), by file name.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { FILES_NAMESPACE } from './namespace.js';

/** EtcFileSpecSpec: raw contents, the permission bits (0o644 …) and an SELinux label, empty for none. */
export interface EtcFileSpecSpec {
  contents: Uint8Array;
  mode: number;
  selinuxLabel: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** contentsYAML is how upstream's StringBytes prints: text when valid UTF-8, otherwise a list of byte values. */
const contentsYAML = (b: Uint8Array): string | Uint8Array => {
  try {
    return utf8.decode(b);
  } catch {
    return b;
  }
};

const contentsOf = (v: unknown): Uint8Array =>
  typeof v === 'string'
    ? new TextEncoder().encode(v)
    : Array.isArray(v)
      ? Uint8Array.from(v.map(Number))
      : v instanceof Uint8Array
        ? v.slice()
        : new Uint8Array(0);

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

export const EtcFileSpec = defineResource<EtcFileSpecSpec>({
  type: 'EtcFileSpecs.files.talos.dev',
  defaultNamespace: FILES_NAMESPACE,
  empty: () => ({ contents: new Uint8Array(0), mode: 0, selinuxLabel: '' }),
  copy: (s) => ({ contents: s.contents.slice(), mode: s.mode, selinuxLabel: s.selinuxLabel }),
  equal: (a, b) =>
    a.mode === b.mode && a.selinuxLabel === b.selinuxLabel && sameBytes(a.contents, b.contents),
  proto: {
    contents: { no: 1, kind: 'bytes' },
    mode: { no: 2, kind: 'uint32' },
    selinuxLabel: { no: 3, kind: 'string' },
  },
  fromProto: (v) => ({
    contents: contentsOf(v.contents),
    mode: Number(v.mode ?? 0),
    selinuxLabel: String(v.selinuxLabel ?? ''),
  }),
  // fs.FileMode has no text form for yaml, so the mode prints as its decimal number (420 for 0o644)
  toYAML: (s) => ({ contents: contentsYAML(s.contents), mode: s.mode, selinux_label: s.selinuxLabel }),
  fromYAML: (v) => {
    const o = (v ?? {}) as Record<string, unknown>;
    return {
      contents: contentsOf(o.contents),
      mode: Number(o.mode ?? 0),
      selinuxLabel: String(o.selinux_label ?? ''),
    };
  },
});
export type EtcFileSpec = ResourceOf<typeof EtcFileSpec>;
