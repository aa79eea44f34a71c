// MetaWrite and MetaDelete through a real API server (mutual TLS), on the node's META host: values held in
// memory until a real META partition (a loop device with a GPT) is attached, then flushed onto it and read
// back from the disk; the MetaKey resources follow; refusals carry upstream's status codes.
import { type Client, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  META_LOADED_ID,
  MetaKey,
  MetaLoaded,
  RUNTIME_NAMESPACE,
  registerRuntimeResources,
} from '../../../resources/runtime/index.js';
import { statefulHandlers } from '../../../src/api/machine-stateful/index.js';
import { type ApiServer, startApiServer } from '../../../src/api/server.js';
import { registerDefault, registerNamespace } from '../../../src/cosi/resource/meta/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import type { State } from '../../../src/cosi/state/state.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { type MetaHost, metaHost } from '../../../src/machined/node/meta-host.js';
import { openMeta } from '../../../src/sys/block/meta/index.js';
import { gptLoopDisk } from '../../sys/block/meta/loop-disk.js';
import { callUnary, errorOf, mintPKI, mtls, serviceClient, type TestPKI } from '../fixtures.js';

let pki: TestPKI;
let server: ApiServer;
let state: State;
let meta: MetaHost;
let admin: Client;
let reader: Client;
const log: string[] = [];

beforeAll(async () => {
  pki = await mintPKI();
  state = wrapCore(newInmemState());
  await registerDefault(state);
  await registerNamespace(state, RUNTIME_NAMESPACE, 'runtime');
  await registerRuntimeResources(state);
  meta = metaHost(state, (l) => log.push(l));
  server = await startApiServer({
    address: '127.0.0.1:0',
    mode: 'normal',
    state,
    identity: { ca: pki.osCA.crt, server: pki.server },
    handlers: statefulHandlers({
      config: {
        active: () => undefined,
        validationMode: 'metal',
        maintenance: () => false,
        apply: async () => {},
      },
      meta,
    }),
  });
  admin = serviceClient('machine.MachineService', server.address, mtls(pki.osCA.crt, pki.admin));
  reader = serviceClient('machine.MachineService', server.address, mtls(pki.osCA.crt, pki.reader));
});

afterAll(async () => {
  admin?.close();
  reader?.close();
  await server?.close({ signal: AbortSignal.timeout(5_000) });
});

const write = (key: number, value: string, c = admin) =>
  callUnary(c, 'MetaWrite', { key, value: Buffer.from(value) });
const del = (key: number, c = admin) => callUnary(c, 'MetaDelete', { key });
const keyValue = async (id: string) =>
  ((await state.get(MetaKey.pointer(id, RUNTIME_NAMESPACE)).catch(() => undefined)) as MetaKey | undefined)
    ?.spec.value;

describe('MetaWrite and MetaDelete', () => {
  it('keeps values in memory before a partition is attached, then flushes them onto it', async () => {
    await write(0x0c, 'before the disk');
    expect(await keyValue('0x0c')).toBe('before the disk');

    const { part } = await gptLoopDisk();
    await meta.attach(part);
    await meta.loaded();
    expect(meta.path).toBe(part);
    const loaded = (await state.get(MetaLoaded.pointer(META_LOADED_ID, RUNTIME_NAMESPACE))) as MetaLoaded;
    expect(loaded.spec.done).toBe(true);

    // what the partition itself holds, read by a fresh store
    expect((await openMeta(part)).get(0x0c)?.toString()).toBe('before the disk');

    await write(0x0a, 'network: {}');
    expect((await openMeta(part)).get(0x0a)?.toString()).toBe('network: {}');
    expect(await keyValue('0x0a')).toBe('network: {}');

    const reply = await del(0x0a);
    expect(reply.messages).toHaveLength(1);
    expect((await openMeta(part)).get(0x0a)).toBeUndefined();
    expect(await keyValue('0x0a')).toBeUndefined();
    expect(log.some((l) => l.startsWith(`META: loaded 1 keys from ${part}`))).toBe(true);
  });

  it('refuses keys that are no byte, reserved tags, values that do not fit and absent keys', async () => {
    const wide = await errorOf(write(0x100, 'x'));
    expect(wide.code).toBe(status.INVALID_ARGUMENT);
    expect(wide.details).toBe('key must be a uint8');

    const end = await errorOf(write(0, 'x'));
    expect(end.code).toBe(status.INVALID_ARGUMENT);
    expect(end.details).toContain('tag 0x00');

    const big = await errorOf(write(0x0d, 'y'.repeat(300 * 1024)));
    expect(big.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(big.details).toMatch(/^meta write failed: tag 0x0d: 307200 bytes/);
    expect(await keyValue('0x0d')).toBeUndefined();

    const absent = await errorOf(del(0x0e));
    expect(absent.code).toBe(status.NOT_FOUND);
    expect(absent.details).toBe('meta key not found');
  });

  it('is for admins only', async () => {
    const e = await errorOf(write(0x0c, 'x', reader));
    expect(e.code).toBe(status.PERMISSION_DENIED);
  });
});
