// SecretsError: why a secrets controller cannot produce its output, naming the resource at fault.
import type { Pointer } from '../../../src/cosi/resource/kind.js';

export type SecretsErrorCode =
  /** a root secret lacks something its consumers need (an issuing CA key, a CA, a token) */
  | 'missing-secret'
  /** a root secret is present but does not parse */
  | 'invalid-secret';

export class SecretsError extends Error {
  constructor(
    readonly code: SecretsErrorCode,
    readonly ref: Pointer,
    what: string,
    opts?: ErrorOptions,
  ) {
    super(`${ref.type}(${ref.namespace}/${ref.id}): ${what}`, opts);
    this.name = 'SecretsError';
  }
}

export const isMissingSecret = (e: unknown): boolean =>
  e instanceof SecretsError && e.code === 'missing-secret';
