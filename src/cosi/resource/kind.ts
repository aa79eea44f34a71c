// Identity of resources: Kind (namespace + type) ⊂ Pointer (+ id) ⊂ Reference (+ version).
import type { Version } from './version.js';

export type Namespace = string;
export type Type = string;
export type ID = string;
export type Owner = string;

/** Kind names a collection: every resource of one type in one namespace. */
export interface Kind {
  readonly namespace: Namespace;
  readonly type: Type;
}

/** Pointer names one resource. */
export interface Pointer extends Kind {
  readonly id: ID;
}

/** Reference names one version of one resource. */
export interface Reference extends Pointer {
  readonly version: Version;
}

export const kind = (namespace: Namespace, type: Type): Kind => ({ namespace, type });
export const pointer = (namespace: Namespace, type: Type, id: ID): Pointer => ({ namespace, type, id });

/** pointerString renders `Type(ns/id)`, the form every message uses. */
export const pointerString = (p: Pointer): string => `${p.type}(${p.namespace}/${p.id})`;
