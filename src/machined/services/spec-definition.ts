// From a ServiceSpec (data the controllers derived) to the ServiceDefinition the supervisor runs. The
// `process` kind is a supervised child of machined; other kinds (etcd joining its cluster first, a
// containerd task) wrap or replace it, registered by name, so adding one never touches the supervisor.
import { chmodSync, mkdirSync } from 'node:fs';
import { get } from 'node:http';
import { connect } from 'node:net';
import type { ServiceHealthSpec, ServiceSpecSpec } from '../../../resources/v1alpha1/index.js';
import { writeFileAtomic } from '../../sys/fs/index.js';
import type { CgroupPlacer } from './cgroup.js';
import { ServiceError } from './errors.js';
import type { HealthCheck } from './health.js';
import { processRunner, type SpawnFn } from './process-runner.js';
import type { ServiceDefinition } from './service.js';

/** What every kind may use to start its processes. */
export interface SpecEnvironment {
  /** moves a child into its cgroup; absent outside PID 1 */
  readonly cgroups?: CgroupPlacer;
  readonly spawn?: SpawnFn;
}

/** A kind turns a service's spec into its definition. */
export type ServiceKind = (id: string, spec: ServiceSpecSpec, env: SpecEnvironment) => ServiceDefinition;

/** processKind: write the spec's files, then run its program under the supervisor's restart policy. */
export const processKind: ServiceKind = (id, spec, env) => ({
  id,
  dependsOn: spec.dependsOn,
  apiControl: spec.apiControl,
  // written on every start, so a file changed or removed by hand is put back as the spec says
  pre: () => writeServiceFiles(spec),
  runner: () =>
    processRunner({
      args: spec.args,
      env: spec.env,
      ...(spec.uid !== 0 ? { uid: spec.uid } : {}),
      ...(spec.gid !== 0 ? { gid: spec.gid } : {}),
      ...(env.spawn ? { spawn: env.spawn } : {}),
      ...(env.cgroups ? { cgroup: { path: spec.cgroup || `system/${id}`, placer: env.cgroups } } : {}),
    }),
  ...healthOf(spec.health),
});

/** definitionOf picks the spec's kind; an unknown kind is an error naming it and the service. */
export function definitionOf(
  id: string,
  spec: ServiceSpecSpec,
  kinds: Readonly<Record<string, ServiceKind>>,
  env: SpecEnvironment,
): ServiceDefinition {
  const kind = kinds[spec.kind];
  if (!kind)
    throw new ServiceError(
      'unsupported',
      `service ${JSON.stringify(id)}: unknown kind ${JSON.stringify(spec.kind)} (known: ${Object.keys(kinds).join(', ')})`,
    );
  return kind(id, spec, env);
}

/**
 * writeServiceFiles makes the spec's directories (their mode enforced, as upstream's directory volumes),
 * then writes each file atomically, owned by the service's user so it can read its keys.
 */
export function writeServiceFiles(spec: ServiceSpecSpec): void {
  for (const d of spec.dirs ?? []) {
    mkdirSync(d.path, { recursive: true, mode: d.mode });
    chmodSync(d.path, d.mode);
  }
  for (const f of spec.files)
    writeFileAtomic(f.path, f.content, {
      mode: f.mode,
      dirMode: 0o755,
      ...(spec.uid !== 0 || spec.gid !== 0 ? { owner: { uid: spec.uid, gid: spec.gid } } : {}),
    });
}

function healthOf(h: ServiceHealthSpec): Pick<ServiceDefinition, 'health'> {
  if (h.kind === 'tcp') return { health: { check: tcpCheck(h.address) } };
  if (h.kind === 'unix') return { health: { check: unixCheck(h.path) } };
  if (h.kind === 'http')
    return {
      health: {
        check: httpCheck(h.url),
        ...(h.initialDelayMs !== undefined ? { settings: { initialDelayMs: h.initialDelayMs } } : {}),
      },
    };
  return {};
}

/** unixCheck passes once a connection to the unix socket opens (the daemon accepts on it). */
export function unixCheck(path: string): HealthCheck {
  return (signal) =>
    new Promise<void>((resolve, reject) => {
      const socket = connect({ path, signal });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', reject);
    });
}

/** tcpCheck passes once a TCP connection to host:port opens. */
export function tcpCheck(address: string): HealthCheck {
  const colon = address.lastIndexOf(':');
  const host = address.slice(0, colon).replace(/^\[|\]$/g, '');
  const port = Number(address.slice(colon + 1));
  return (signal) =>
    new Promise<void>((resolve, reject) => {
      const socket = connect({ host, port, signal });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', reject);
    });
}

/** httpCheck passes once a GET of the URL answers 200 (upstream's simpleHealthCheck). */
export function httpCheck(url: string): HealthCheck {
  return (signal) =>
    new Promise<void>((resolve, reject) => {
      const req = get(url, { signal }, (res) => {
        res.resume();
        if (res.statusCode === 200) resolve();
        else
          reject(
            new Error(`expected HTTP status OK, got ${res.statusCode} ${res.statusMessage ?? ''}`.trim()),
          );
      });
      req.once('error', reject);
    });
}
