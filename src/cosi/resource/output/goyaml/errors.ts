// YAMLError: the one error class of the Go-compatible YAML room.

export type YAMLErrorCode =
  /** the text is not YAML */
  | 'syntax'
  /** a JS value has no YAML form (a function, a symbol, an invalid date, …) */
  | 'marshal'
  /** YAML that parsed but does not have the shape asked for */
  | 'decode';

export class YAMLError extends Error {
  constructor(
    readonly code: YAMLErrorCode,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'YAMLError';
  }
}
