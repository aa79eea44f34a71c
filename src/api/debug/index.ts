// src/api/debug: DebugService.ContainerRun (a privileged container from an image already in the node,
// attached to the call) and ImageService.Pull answered from the node's own images: nothing is pulled.
import type { HandlerMap } from '../handlers.js';
import { containerRunHandler } from './container-run.js';
import type { DebugDeps } from './deps.js';
import { imagePullHandler } from './image-pull.js';

export type * from './deps.js';
export { findImage, normalizeRef, pulledName } from './image-ref.js';
export { crlf, LineMode, NO_TERMINAL_NOTICE } from './terminal.js';

/** debugHandlers: ContainerRun and Pull, registered apart from the other ImageService handlers. */
export const debugHandlers = (deps: DebugDeps): HandlerMap => ({
  '/machine.DebugService/ContainerRun': containerRunHandler(deps),
  '/machine.ImageService/Pull': imagePullHandler(deps),
});
