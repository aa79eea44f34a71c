// gRPC failures as Go prints them (`rpc error: code = Unavailable desc = …`): what apid puts in a failed
// node's metadata and what talosctl users read, so Keel's server and keelctl word them alike.

/** Go's names for the gRPC status codes. */
const GO_CODE_NAMES: readonly string[] = [
  'OK',
  'Canceled',
  'Unknown',
  'InvalidArgument',
  'DeadlineExceeded',
  'NotFound',
  'AlreadyExists',
  'PermissionDenied',
  'ResourceExhausted',
  'FailedPrecondition',
  'Aborted',
  'OutOfRange',
  'Unimplemented',
  'Internal',
  'Unavailable',
  'DataLoss',
  'Unauthenticated',
];

export const goCodeName = (code: number): string => GO_CODE_NAMES[code] ?? `Code(${code})`;

/** goStatusText is a status error's Error() in Go: `rpc error: code = <Name> desc = <message>`. */
export const goStatusText = (code: number, message: string): string =>
  `rpc error: code = ${goCodeName(code)} desc = ${message}`;
