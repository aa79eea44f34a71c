// The node's EtcdHost for the API: its checks read the machine type and the etcd service's spec from the
// state, clients are made from machined's etcd identity (the files of the etcd ServiceSpec), and a
// bootstrap is recorded as the EtcdBootstrap resource the etcd service controller turns into a restart.
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ETCD_SERVICE_ID, etcdClientTLS } from '../../../../controllers/etcd/service.js';
import { isControlPlane, MACHINE_TYPE_ID, MachineType } from '../../../../resources/config/machine-type.js';
import { ETCD_BOOTSTRAP_ID, EtcdBootstrap } from '../../../../resources/etcd/index.js';
import { TIME_STATUS_ID, TimeStatus } from '../../../../resources/time/index.js';
import { ServiceSpec, type ServiceSpecSpec } from '../../../../resources/v1alpha1/index.js';
import { ApiError } from '../../../api/errors.js';
import type { EtcdHost } from '../../../api/machine-stateful/index.js';
import type { TypedResource } from '../../../cosi/resource/typed.js';
import type { State } from '../../../cosi/state/state.js';
import { EtcdClient } from '../../../etcd/index.js';
import { snapshotPathOf } from './kind.js';

export interface NodeEtcdOptions {
  readonly state: State;
  /** a container's clock is its host's: no time sync to wait for */
  readonly checkTime: boolean;
}

const get = async <S>(state: State, ptr: ReturnType<typeof ServiceSpec.pointer>) =>
  (await state.get(ptr).catch(() => undefined)) as TypedResource<S> | undefined;

export function nodeEtcdHost(o: NodeEtcdOptions): EtcdHost {
  const { state } = o;
  const role = async () =>
    (await get<{ type: string }>(state, MachineType.pointer(MACHINE_TYPE_ID)))?.spec.type;
  const controlPlane = async () => {
    const r = await role();
    return r !== undefined && isControlPlane(r as Parameters<typeof isControlPlane>[0]);
  };
  const spec = async (): Promise<ServiceSpecSpec | undefined> =>
    (await get<ServiceSpecSpec>(state, ServiceSpec.pointer(ETCD_SERVICE_ID)))?.spec;
  // the etcd service's spec as the last ready() read it: the clients are made from it
  let current: ServiceSpecSpec | undefined;
  const ready = async (op: string): Promise<ServiceSpecSpec> => {
    if (!(await controlPlane()))
      throw new ApiError('unimplemented', `${op} is only available on control plane nodes`);
    const s = await spec();
    if (!s) throw new ApiError('unavailable', 'etcd is not configured on this node yet');
    current = s;
    return s;
  };

  return {
    async ready(op) {
      await ready(op);
    },

    async bootstrap(req, signal) {
      if (!(await controlPlane()))
        throw new ApiError('failed-precondition', 'bootstrap can only be performed on a control plane node');
      const s = await spec();
      if (!s) throw new ApiError('failed-precondition', 'bootstrap is not available yet');
      if (o.checkTime) await timeSynced(state, signal);
      const dataDir = s.options.dataDir ?? '';
      const existing = await get(state, EtcdBootstrap.pointer(ETCD_BOOTSTRAP_ID));
      if (existing || nonEmpty(dataDir))
        throw new ApiError('already-exists', 'etcd data directory is not empty');
      if (req.recoverEtcd && !nonEmptyFile(snapshotPathOf(dataDir)))
        throw new ApiError(
          'failed-precondition',
          'no snapshot to recover from: upload one first (bootstrap --recover-from)',
        );
      await state.create(
        EtcdBootstrap.new('etcd', ETCD_BOOTSTRAP_ID, {
          recoverFromSnapshot: req.recoverEtcd,
          recoverSkipHashCheck: req.recoverSkipHashCheck,
        }),
        { owner: '' },
      );
    },

    client(scope) {
      const s = current;
      if (!s) throw new ApiError('unavailable', 'etcd is not configured on this node yet');
      const local = s.options.localEndpoint ?? 'https://127.0.0.1:2379';
      const join = s.options.joinHost;
      const endpoints =
        scope === 'local' || !join
          ? [local]
          : [local, `https://${join.includes(':') ? `[${join}]` : join}:2379`];
      return new EtcdClient({ endpoints, tls: etcdClientTLS(s), timeoutMs: 15_000 });
    },

    async localMemberId(signal) {
      const s = await ready('etcd member id');
      const c = new EtcdClient({
        endpoints: [s.options.localEndpoint ?? ''],
        tls: etcdClientTLS(s),
        timeoutMs: 5_000,
      });
      const abort = () => c.close();
      signal.addEventListener('abort', abort, { once: true });
      try {
        return (await c.status()).memberId;
      } catch (e) {
        throw new ApiError('unavailable', `etcd member of this node is not running: ${(e as Error).message}`);
      } finally {
        signal.removeEventListener('abort', abort);
        c.close();
      }
    },

    async storeRecoverySnapshot(chunks, signal) {
      const s = await ready('etcd recover').catch((e: unknown) => {
        if (e instanceof ApiError && e.code === 'unimplemented') throw e;
        throw new ApiError('failed-precondition', 'etcd service is not ready for recovery yet');
      });
      const target = snapshotPathOf(s.options.dataDir ?? '');
      mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
      const partial = `${target}.part`;
      const fd = openSync(partial, 'w', 0o600);
      let ok = false;
      try {
        for await (const chunk of chunks) {
          signal.throwIfAborted();
          writeSync(fd, chunk);
        }
        fsyncSync(fd);
        ok = true;
      } finally {
        closeSync(fd);
        if (!ok) rmSync(partial, { force: true });
      }
      renameSync(partial, target);
    },
  };
}

function nonEmpty(dir: string): boolean {
  try {
    return readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}

function nonEmptyFile(path: string): boolean {
  try {
    return statSync(path).size > 0;
  } catch {
    return false;
  }
}

/** timeSynced waits up to 5 s for the clock, as upstream, then refuses. */
async function timeSynced(state: State, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const t = (await state.get(TimeStatus.pointer(TIME_STATUS_ID)).catch(() => undefined)) as
      | TypedResource<{ synced: boolean }>
      | undefined;
    if (t?.spec.synced) return;
    if (Date.now() > deadline) throw new ApiError('failed-precondition', 'time is not in sync yet');
    await delay(200, undefined, { signal });
  }
}
