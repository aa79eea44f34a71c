// EtcdError: a failed etcd call, with the gRPC status code etcd (or the transport) gave.
export class EtcdError extends Error {
  constructor(
    readonly code: number,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'EtcdError';
  }
}
