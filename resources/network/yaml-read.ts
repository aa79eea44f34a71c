// Readers for parsed yaml_spec values: each takes what the YAML held and gives the spec's type, zero if absent.

export type YAMLObject = Readonly<Record<string, unknown>>;

export const obj = (v: unknown): YAMLObject =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as YAMLObject) : {};
export const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
export const num = (v: unknown): number =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0;
export const bool = (v: unknown): boolean => v === true;
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const strs = (v: unknown): string[] => list(v).map(str);
