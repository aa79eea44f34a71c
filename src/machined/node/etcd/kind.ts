// The `etcd` service kind: the process kind's files and program, plus what upstream's etcd service does
// around them — the data directory (owned by etcd's user), the start mode (restart, bootstrap with an
// optional snapshot restore, join as a learner, or wait), the promotion of a learner once it runs, and a
// health check that asks the member itself.
import { spawn as nodeSpawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  lchownSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { etcdClientTLS } from '../../../../controllers/etcd/service.js';
import type { ServiceSpecSpec } from '../../../../resources/v1alpha1/index.js';
import { EtcdClient, type EtcdTLS } from '../../../etcd/index.js';
import { walk } from '../../../sys/fs/index.js';
import {
  type HealthCheck,
  processRunner,
  type Runner,
  runProgram,
  type ServiceKind,
  type SpawnFn,
  writeServiceFiles,
} from '../../services/index.js';
import { joinCluster, promoteLearner } from './join.js';
import { type StartMode, startArgs, startMode } from './start-mode.js';

export interface EtcdKindOptions {
  readonly log: (line: string) => void;
  /** spawns etcdutl; default Node's */
  readonly spawn?: SpawnFn;
}

/** where the EtcdRecover call leaves a snapshot for `bootstrap --recover-from` */
export const snapshotPathOf = (dataDir: string): string => `${dataDir}.snapshot`;

export function etcdKind(kindOpts: EtcdKindOptions): ServiceKind {
  return (id, spec, env) => {
    const o = spec.options;
    const tls = etcdClientTLS(spec);
    const peerURLs = (o.peerURLs ?? '').split(',').filter(Boolean);
    // decided by each start's pre stage, read by the runner made right after it
    let args: string[] = [];
    let learner: { id: string; voters: readonly string[] } | undefined;
    const log = (line: string) => kindOpts.log(line);
    return {
      id,
      dependsOn: spec.dependsOn,
      apiControl: spec.apiControl,
      pre: async ({ signal }) => {
        writeServiceFiles(spec);
        const dataDir = o.dataDir!;
        // etcd's user must be able to pass through its parents (/var/lib, /var), whoever made them first
        // (containerd makes its own under /var/lib 0700); the directory itself is etcd's alone
        mkdirSync(dirname(dataDir), { recursive: true, mode: 0o755 });
        for (const dir of [dirname(dataDir), dirname(dirname(dataDir))]) traversable(dir);
        mkdirSync(dataDir, { recursive: true, mode: 0o700 });
        chownSync(dataDir, spec.uid, spec.gid);
        const mode: StartMode = startMode(readdirSync(dataDir).length === 0, o);
        learner = undefined;
        if (mode.kind === 'wait') {
          log('etcd: waiting for `talosctl bootstrap` (no data, no cluster endpoint to join)');
          await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
        }
        if (mode.kind === 'bootstrap' && mode.recover) await restore(spec, o, kindOpts, signal);
        let initialCluster: string | undefined;
        if (mode.kind === 'join') {
          const joined = await joinCluster({
            endpoints: [`https://${mode.host.includes(':') ? `[${mode.host}]` : mode.host}:2379`],
            tls,
            name: o.name!,
            peerURLs,
            signal,
            log,
          });
          initialCluster = joined.initialCluster;
          learner = { id: joined.id, voters: joined.voters };
        }
        log(
          `etcd: starting (${mode.kind === 'bootstrap' && mode.recover ? 'recovered from a snapshot' : mode.kind})`,
        );
        args = [...spec.args, ...startArgs(mode, o.name!, o.peerURLs ?? '', initialCluster)];
      },
      runner: () => {
        const run = processRunner({
          args,
          env: spec.env,
          uid: spec.uid,
          gid: spec.gid,
          ...(env.spawn ? { spawn: env.spawn } : {}),
          ...(env.cgroups ? { cgroup: { path: spec.cgroup || `system/${id}`, placer: env.cgroups } } : {}),
        });
        const joined = learner;
        return joined
          ? promotingRunner(run, (signal) =>
              promoteLearner({ endpoints: joined.voters, tls, id: joined.id, signal, log }).then(() => {}),
            )
          : run;
      },
      health: {
        check: etcdHealth(o.localEndpoint!, tls),
        // upstream's: a first check after 5 s, then every 20 s, each allowed 15 s
        settings: { initialDelayMs: 5_000, periodMs: 20_000, timeoutMs: 15_000 },
      },
    };
  };
}

/** traversable lets everyone pass through `dir` (the x bits), changing nothing else of it. */
function traversable(dir: string): void {
  const mode = statSync(dir).mode & 0o7777;
  if ((mode & 0o011) !== 0o011) chmodSync(dir, mode | 0o011);
}

/** promotingRunner runs the process and, beside it, the learner's promotion until either ends. */
function promotingRunner(run: Runner, promote: (signal: AbortSignal) => Promise<void>): Runner {
  return {
    kind: run.kind,
    toString: () => run.toString(),
    run: async (ctx) => {
      const stop = new AbortController();
      void promote(stop.signal).catch(() => {});
      try {
        return await run.run(ctx);
      } finally {
        stop.abort();
      }
    },
  };
}

/**
 * etcdHealth: the member answers with no error of its own and, when it votes, a linearizable read goes
 * through (a quorum exists), as upstream's ValidateQuorum.
 */
export function etcdHealth(endpoint: string, tls: EtcdTLS): HealthCheck {
  return async (signal) => {
    const client = new EtcdClient({ endpoints: [endpoint], tls, timeoutMs: 10_000 });
    const abort = () => client.close();
    signal.addEventListener('abort', abort, { once: true });
    try {
      const s = await client.status();
      if (s.errors.length > 0) throw new Error(`etcd reports: ${s.errors.join('; ')}`);
      if (!s.isLearner) await client.get('health');
    } finally {
      signal.removeEventListener('abort', abort);
      client.close();
    }
  };
}

/** restore makes the data directory from the uploaded snapshot with etcdutl, owned by etcd's user. */
async function restore(
  spec: ServiceSpecSpec,
  o: Readonly<Record<string, string>>,
  k: EtcdKindOptions,
  signal: AbortSignal,
): Promise<void> {
  const dataDir = o.dataDir!;
  const snapshot = snapshotPathOf(dataDir);
  const staging = `${dataDir}.restoring`;
  rmSync(staging, { recursive: true, force: true });
  const initialCluster = (o.peerURLs ?? '')
    .split(',')
    .map((u) => `${o.name}=${u}`)
    .join(',');
  await runProgram(
    k.spawn ?? nodeSpawn,
    o.etcdutl!,
    [
      'snapshot',
      'restore',
      snapshot,
      `--data-dir=${staging}`,
      `--name=${o.name}`,
      `--initial-cluster=${initialCluster}`,
      `--initial-advertise-peer-urls=${o.peerURLs}`,
      ...(o.recoverSkipHashCheck === 'true' ? ['--skip-hash-check'] : []),
    ],
    { signal, env: spec.env },
  );
  // the root included
  for await (const e of walk(staging, { signal })) lchownSync(e.fullPath, spec.uid, spec.gid);
  rmSync(dataDir, { recursive: true, force: true });
  renameSync(staging, dataDir);
  k.log(`etcd: restored the data directory from ${snapshot}`);
}
