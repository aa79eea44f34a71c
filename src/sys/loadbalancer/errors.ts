// LoadBalancerError: why the load balancer could not listen, or an upstream could not be reached.

export type LoadBalancerErrorCode =
  /** the listening address is taken or not the node's */
  | 'listen'
  /** an upstream did not accept a connection in time */
  | 'dial-timeout'
  /** an upstream refused or reset the connection, or its name did not resolve */
  | 'dial';

export class LoadBalancerError extends Error {
  override readonly name = 'LoadBalancerError';

  constructor(
    readonly code: LoadBalancerErrorCode,
    /** host:port of the listener or the upstream */
    readonly address: string,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(`${address}: ${message}`, opts);
  }
}

export const isLoadBalancerError = (e: unknown, ...codes: LoadBalancerErrorCode[]): e is LoadBalancerError =>
  e instanceof LoadBalancerError && (codes.length === 0 || codes.includes(e.code));
