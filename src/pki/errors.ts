// PKIError: the one error class of src/pki, with a code per way minting or reading can fail.
// Messages are lowercase and name the input that is wrong.

export type PKIErrorCode =
  | 'invalid-pem' // not PEM, or not the block that was asked for
  | 'invalid-key' // a key PEM whose bytes do not decode
  | 'unsupported-key' // a key type or curve Keel does not issue with
  | 'invalid-certificate' // certificate bytes that do not parse as X.509
  | 'key-mismatch' // certificate and private key are not a pair
  | 'not-issued-by' // certificate was not signed by the given CA
  | 'invalid-option'; // an option out of range (empty subject, bad IP, notAfter before notBefore)

export class PKIError extends Error {
  constructor(
    readonly code: PKIErrorCode,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'PKIError';
  }
}

const is = (e: unknown, ...c: PKIErrorCode[]) => e instanceof PKIError && c.includes(e.code);
export const isInvalidInput = (e: unknown): boolean =>
  is(e, 'invalid-pem', 'invalid-key', 'invalid-certificate', 'invalid-option');
export const isUnsupportedKey = (e: unknown): boolean => is(e, 'unsupported-key');
export const isKeyMismatch = (e: unknown): boolean => is(e, 'key-mismatch');
export const isNotIssuedBy = (e: unknown): boolean => is(e, 'not-issued-by');
