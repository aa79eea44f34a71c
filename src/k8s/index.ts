// src/k8s: a small Kubernetes API client for machined — a kubeconfig's endpoint and credentials, JSON calls
// and server-side apply over HTTPS, and the discovery of a kind's resource.
export * from './client.js';
export * from './errors.js';
export * from './kubeconfig.js';
export * from './rest-mapping.js';
