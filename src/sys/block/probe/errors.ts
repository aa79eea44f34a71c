// The probe room's error class: what could not be read, and where. A device that holds nothing
// recognisable is not an error; probing returns undefined for it.
export type ProbeErrorCode =
  | 'not-found'
  | 'permission-denied'
  | 'no-medium'
  | 'unsupported-file-type'
  | 'invalid-argument'
  | 'io';

export class ProbeError extends Error {
  constructor(
    readonly code: ProbeErrorCode,
    /** the probed path, or "fd N" for a bare descriptor */
    readonly path: string,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(`${path}: ${message}`, opts);
    this.name = 'ProbeError';
  }
}

const is = (e: unknown, ...c: ProbeErrorCode[]) => e instanceof ProbeError && c.includes(e.code);
export const isProbeNotFound = (e: unknown) => is(e, 'not-found');
/** isProbeUnavailable: the device is there but cannot be read now (no medium, no permission). */
export const isProbeUnavailable = (e: unknown) => is(e, 'no-medium', 'permission-denied');

/** probeErrorOf maps a Node or SysError errno failure about `path` to a ProbeError. */
export function probeErrorOf(path: string, what: string, cause: unknown): ProbeError {
  if (cause instanceof ProbeError) return cause;
  const errno = (cause as { code?: unknown } | undefined)?.code;
  const code: ProbeErrorCode =
    errno === 'ENOENT' || errno === 'ENOTDIR' || errno === 'ENXIO' || errno === 'ENODEV'
      ? 'not-found'
      : errno === 'EACCES' || errno === 'EPERM'
        ? 'permission-denied'
        : errno === 'ENOMEDIUM'
          ? 'no-medium'
          : 'io';
  const why = cause instanceof Error ? cause.message : String(cause);
  return new ProbeError(code, path, `${what}: ${why}`, { cause });
}
