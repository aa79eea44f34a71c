// machined/logging: per-service log rings (~1 MiB, older chunks compressed), machined's own log and the
// kernel log, each readable from a tail and followable, for the Logs API.
export * from './lines.js';
export * from './machined-log.js';
export * from './manager.js';
export * from './ring.js';
