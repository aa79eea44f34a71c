// Listen addresses of the standalone server: tcp://host:port, unix:///path, or a bare host:port.

export type ListenAddress =
  | { readonly kind: 'tcp'; readonly host: string; readonly port: number }
  | { readonly kind: 'unix'; readonly path: string };

/** ListenAddressError says what was wrong with a --listen value. */
export class ListenAddressError extends Error {
  constructor(
    readonly value: string,
    reason: string,
  ) {
    super(`invalid listen address ${JSON.stringify(value)}: ${reason}`);
    this.name = 'ListenAddressError';
  }
}

/** parseListenAddress accepts `tcp://host:port`, `unix:///abs/path` (or `unix:/abs/path`) and `host:port`. */
export function parseListenAddress(value: string): ListenAddress {
  if (value.startsWith('unix:')) {
    const path = value.startsWith('unix://') ? value.slice('unix://'.length) : value.slice('unix:'.length);
    if (!path.startsWith('/')) throw new ListenAddressError(value, 'the socket path must be absolute');
    return { kind: 'unix', path };
  }
  const hostPort = value.startsWith('tcp://') ? value.slice('tcp://'.length) : value;
  if (hostPort.includes('://')) throw new ListenAddressError(value, 'only tcp:// and unix:// are supported');
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/]*):(\d+)$/.exec(hostPort);
  if (!m) throw new ListenAddressError(value, 'expected host:port');
  const port = Number(m[2]);
  if (port > 65_535) throw new ListenAddressError(value, `port ${port} is out of range`);
  return { kind: 'tcp', host: m[1] === '' ? '0.0.0.0' : m[1]!, port };
}

/** grpcBindTarget is the address as grpc-js binds it. */
export const grpcBindTarget = (a: ListenAddress): string =>
  a.kind === 'unix' ? `unix://${a.path}` : `${a.host}:${a.port}`;

/** formatListenAddress renders an address as a URL, the form logs and clients use. */
export const formatListenAddress = (a: ListenAddress): string =>
  a.kind === 'unix' ? `unix://${a.path}` : `tcp://${a.host}:${a.port}`;
