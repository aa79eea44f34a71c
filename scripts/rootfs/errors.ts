// The one error class of the rootfs build; the code says which input is at fault.
export type RootfsErrorCode = 'manifest' | 'package' | 'closure' | 'forbidden' | 'tool' | 'usage';

export class RootfsError extends Error {
  constructor(
    readonly code: RootfsErrorCode,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'RootfsError';
  }
}
