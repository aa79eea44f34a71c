// The uevent room's error class: a datagram on the kernel's uevent socket that does not read as one.
export type UeventErrorCode = 'malformed';

export class UeventError extends Error {
  constructor(
    readonly code: UeventErrorCode,
    message: string,
    /** the first bytes of the datagram, as text with its NULs shown as `\0` */
    readonly preview = '',
    opts?: ErrorOptions,
  ) {
    super(preview ? `uevent ${JSON.stringify(preview)}: ${message}` : `uevent: ${message}`, opts);
    this.name = 'UeventError';
  }
}

export const isUeventMalformed = (e: unknown): e is UeventError =>
  e instanceof UeventError && e.code === 'malformed';
