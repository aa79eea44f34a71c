// The namespace upstream keeps block resources in: block.NamespaceName is v1alpha1's, `runtime`.
export const BLOCK_NAMESPACE = 'runtime';
