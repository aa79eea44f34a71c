// The one error class of the components build; the code says which input is at fault.
export type ComponentsErrorCode = 'manifest' | 'build' | 'tool' | 'usage';

export class ComponentsError extends Error {
  constructor(
    readonly code: ComponentsErrorCode,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'ComponentsError';
  }
}
