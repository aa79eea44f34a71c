// src/k8s: a small Kubernetes API client for machined — a kubeconfig's endpoint and credentials, JSON calls
// and server-side apply over HTTPS, the discovery of a kind's resource, the Node object, a kubeconfig on
// disk whose credentials are files, and the pods the local kubelet reports.
export * from './client.js';
export * from './errors.js';
export * from './kubeconfig.js';
export * from './kubeconfig-file.js';
export * from './kubelet.js';
export * from './node.js';
export * from './rest-mapping.js';
