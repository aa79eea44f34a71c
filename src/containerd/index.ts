// src/containerd: a small client for containerd's gRPC API and its CRI plugin over the unix socket
// (containers, tasks, images, content, pod sandboxes, container status), and an image's size as upstream's.
export * from './client.js';
export * from './cri-client.js';
export * from './errors.js';
export * from './image-size.js';
export type { CallOptions } from './transport.js';
