// controllers/runtime: what machined concludes about the machine itself from other resources (devices
// settled), and the kernel parameters it sets. Upstream's runtime package; more of it joins as it is ported.
import type { Controller } from '../../src/cosi/controller/index.js';
import type { KernelParamRoots } from '../../src/sys/kernel-param.js';
import { KernelParamConfigController } from './kernel-param-config.js';
import { kernelParamDefaultsController } from './kernel-param-defaults.js';
import { kernelParamSpecController } from './kernel-param-spec.js';

export * from './components-layer.js';
export * from './devices-status.js';
export * from './kernel-param-config.js';
export * from './kernel-param-defaults.js';
export * from './kernel-param-spec.js';

/** kernelParamControllers: defaults and config → specs → the kernel; a node's only (a container's kernel is its host's). */
export const kernelParamControllers = (roots?: KernelParamRoots): Controller[] => [
  kernelParamDefaultsController(roots),
  KernelParamConfigController,
  kernelParamSpecController(roots ? { roots } : {}),
];
