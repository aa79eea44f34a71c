// The field schema language: upstream YAML keys in upstream order, with the merge rules patches follow.

/** How a list merges in a strategic patch: appended (default), replaced, or matched by a key. */
export type ListMerge = 'append' | 'replace' | { key: (item: unknown) => string | undefined };

export type Schema =
  | { readonly kind: 'string' }
  | { readonly kind: 'bool' }
  | { readonly kind: 'int' }
  | { readonly kind: 'filemode' }
  | { readonly kind: 'list'; readonly of: Schema; readonly merge: ListMerge }
  | { readonly kind: 'map'; readonly of: Schema }
  | { readonly kind: 'struct'; readonly fields: Readonly<Record<string, Schema>> }
  /** unstructured (kubelet extraConfig, audit policy …) or upstream fields Keel keeps but does not read */
  | { readonly kind: 'any'; readonly replace: boolean };

export type StructSchema = Extract<Schema, { kind: 'struct' }>;

export const str: Schema = { kind: 'string' };
export const bool: Schema = { kind: 'bool' };
export const int: Schema = { kind: 'int' };
export const filemode: Schema = { kind: 'filemode' };
export const unstructured: Schema = { kind: 'any', replace: false };
export const unstructuredReplaced: Schema = { kind: 'any', replace: true };
export const list = (of: Schema, merge: ListMerge = 'append'): Schema => ({ kind: 'list', of, merge });
export const map = (of: Schema = str): Schema => ({ kind: 'map', of });
export const struct = (fields: Record<string, Schema>): StructSchema => ({ kind: 'struct', fields });

/** keyedBy merges list items whose `field` values are equal (upstream's custom Merge methods). */
export const keyedBy =
  (...fields: string[]) =>
  (item: unknown): string | undefined => {
    if (typeof item !== 'object' || item === null) return undefined;
    for (const f of fields) {
      const v = (item as Record<string, unknown>)[f];
      if (v !== undefined && v !== '') return `${f}=${JSON.stringify(v)}`;
    }
    return undefined;
  };

/** Typed documents begin with these keys, in this order. */
export const typedHeader = { apiVersion: str, kind: str };
export const namedHeader = { apiVersion: str, kind: str, name: str };
