// cosi/controller: controller contracts (Controller, QController), the Runtime that runs them, and
// the typed reader/writer controllers use. Generic controllers live in ./generic/.
export * from './controller.js';
export * from './dependency.js';
export * from './errors.js';
// the event loop's turns reconciles take, for other start-up work that should let I/O in between, and
// the hold that makes them all give way to a waiting client
export { holdTurns, nextTurn } from './internal/turns.js';
export * from './logger.js';
export * from './metrics.js';
export * from './options.js';
export * from './qcontroller.js';
export * from './reader-writer.js';
export * from './runtime.js';
