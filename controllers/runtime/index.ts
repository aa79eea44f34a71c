// controllers/runtime: what machined concludes about the machine itself from other resources (devices
// settled). Upstream's runtime package; more of it joins as it is ported.

export * from './components-layer.js';
export * from './devices-status.js';
