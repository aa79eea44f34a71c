// The k8s controllers' typed error.

/** K8sConfigError: a Kubernetes setting of the machine config cannot be used; the message names it. */
export class K8sConfigError extends Error {
  override readonly name = 'K8sConfigError';
}
