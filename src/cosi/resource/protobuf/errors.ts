// ProtoError: the one error class of the protobuf room, classified by what went wrong.

export type ProtoErrorCode =
  /** the bytes are not valid protobuf wire data (truncated, bad wire type, bad UTF-8, …) */
  | 'malformed'
  /** a value does not fit the schema field it is encoded as */
  | 'invalid-value'
  /** the schema itself is unusable (duplicate or out-of-range field numbers) */
  | 'invalid-schema'
  /** a cosi.resource.Resource message lacks a part or carries an unparsable one */
  | 'invalid-message';

export class ProtoError extends Error {
  constructor(
    readonly code: ProtoErrorCode,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'ProtoError';
  }
}

export const isProtoError = (e: unknown, code?: ProtoErrorCode): e is ProtoError =>
  e instanceof ProtoError && (code === undefined || e.code === code);
