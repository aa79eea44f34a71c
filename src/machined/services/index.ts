// machined/services: the services supervisor — definitions, states, restart policies and backoff, health
// checks, dependency order, and runners (process, in-process, containerd through the layer's ctr).
export * from './backoff.js';
export * from './cap-launcher.js';
export * from './cgroup.js';
export * from './condition.js';
export * from './container-kind.js';
export * from './containerd-runner.js';
export * from './ctr-args.js';
export * from './ctr-ops.js';
export * from './debug-containers.js';
export * from './errors.js';
export * from './graph.js';
export * from './health.js';
export * from './in-process-runner.js';
export * from './process-runner.js';
export * from './restart.js';
export * from './run-program.js';
export * from './runner.js';
export * from './service.js';
export * from './service-events.js';
export * from './service-runner.js';
export * from './spawn-without-fork.js';
export * from './spec-definition.js';
export * from './spec-host.js';
export * from './state.js';
export * from './supervisor.js';
