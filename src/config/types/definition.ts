// A typed document kind: its name, whether it carries `name:`, its schema and its own rules.
import type { RuleContext } from '../validate/context.js';
import type { StructSchema } from './schema.js';

export interface DocumentDefinition<T = unknown> {
  readonly kind: string;
  /** named kinds carry `name:` and may appear once per name */
  readonly named: boolean;
  readonly schema: StructSchema;
  readonly validate: (doc: T, ctx: RuleContext) => void;
}

/** defineDocument erases the spec type so kinds can share one registry. */
export const defineDocument = <T>(d: DocumentDefinition<T>): DocumentDefinition =>
  d as unknown as DocumentDefinition;

/** Every typed document starts with these header fields. */
export interface TypedHeader {
  apiVersion?: string;
  kind?: string;
}
export interface NamedHeader extends TypedHeader {
  name?: string;
}
