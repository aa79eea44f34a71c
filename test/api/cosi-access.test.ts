import { type Client, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, startApiServer } from '../../src/api/server.js';
import type { CoreState } from '../../src/cosi/state/core.js';
import { wrapCore } from '../../src/cosi/state/wrap.js';
import {
  callStream,
  callUnary,
  errorOf,
  mintPKI,
  mtls,
  nodeState,
  PlainThings,
  type Reply,
  SecretThings,
  serviceClient,
  type TestPKI,
  takeStream,
  UNREGISTERED_NAMESPACE,
  withMetadata,
} from './fixtures.js';

let pki: TestPKI;
let core: CoreState;
let server: ApiServer;
let reader: Client;
let admin: Client;
beforeAll(async () => {
  pki = await mintPKI();
  core = await nodeState();
  server = await startApiServer({
    address: '127.0.0.1:0',
    mode: 'normal',
    state: core,
    identity: { ca: pki.osCA.crt, server: pki.server },
  });
  reader = serviceClient('cosi.resource.State', server.address, mtls(pki.osCA.crt, pki.reader));
  admin = serviceClient('cosi.resource.State', server.address, mtls(pki.osCA.crt, pki.admin));
});
afterAll(async () => {
  reader?.close();
  admin?.close();
  await server?.close({ signal: AbortSignal.timeout(5_000) });
});

const plain = { namespace: 'runtime', type: PlainThings.type };

describe('cosi.resource.State through the API', () => {
  it('Get returns the resource with both spec encodings', async () => {
    const reply = await callUnary(reader, 'Get', { ...plain, id: 'one' });
    const resource = reply.resource as { metadata: Reply; spec: Reply };
    expect(resource.metadata).toMatchObject({ id: 'one', version: '1', phase: 'running' });
    expect(resource.spec.yaml_spec).toContain('hello');
  });

  it('Get of a missing resource is NOT_FOUND', async () => {
    expect((await errorOf(callUnary(reader, 'Get', { ...plain, id: 'nope' }))).code).toBe(status.NOT_FOUND);
  });

  it('List streams the kind', async () => {
    const items = await callStream(reader, 'List', plain);
    expect(items.map((i) => (i.resource as { metadata: Reply }).metadata.id)).toEqual(['one']);
  });

  it('Watch sends the ready message, the bootstrap and then live events', async () => {
    const state = wrapCore(core);
    const events = await takeStream(
      reader,
      'Watch',
      { ...plain, options: { bootstrap_contents: true }, api_version: 1 },
      4,
      withMetadata({}),
      (n) => {
        if (n === 3) void state.create(PlainThings.new('runtime', 'live', { value: 'new' }));
      },
    );
    expect(events[0]).toEqual({}); // defaults off: the empty "watch is ready" message decodes to {}
    const types = events.slice(1).map((e) => (e.event as Reply[])[0]!.event_type);
    expect(types).toEqual(['CREATED', 'BOOTSTRAPPED', 'CREATED']);
    await state.destroy(PlainThings.pointer('live'));
  });

  it('refuses every write with "write access is not allowed", even for os:admin', async () => {
    const err = await errorOf(callUnary(admin, 'Destroy', { ...plain, id: 'one' }));
    expect(err.code).toBe(status.PERMISSION_DENIED);
    expect(err.details).toContain('write access is not allowed');
    const create = await errorOf(
      callUnary(admin, 'Create', {
        resource: {
          metadata: { ...plain, id: 'two', version: '1', phase: 'running' },
          spec: { yaml_spec: 'value: x\n' },
        },
      }),
    );
    expect(create.code).toBe(status.PERMISSION_DENIED);
  });

  it('refuses a type without a ResourceDefinition', async () => {
    const err = await errorOf(
      callStream(reader, 'List', { namespace: 'runtime', type: 'Unknowns.test.keel.dev' }),
    );
    expect(err.code).toBe(status.PERMISSION_DENIED);
    expect(err.details).toBe('resource type "Unknowns.test.keel.dev" is not supported');
  });

  it('keeps sensitive types for os:admin', async () => {
    const secret = { namespace: 'secrets', type: SecretThings.type, id: 'key' };
    const err = await errorOf(callUnary(reader, 'Get', secret));
    expect(err.code).toBe(status.PERMISSION_DENIED);
    expect(err.details).toContain('sensitive');
    const watch = await errorOf(
      callStream(reader, 'Watch', { namespace: 'secrets', type: SecretThings.type }),
    );
    expect(watch.code).toBe(status.PERMISSION_DENIED);
    const reply = await callUnary(admin, 'Get', secret);
    expect((reply.resource as { spec: Reply }).spec.yaml_spec).toContain('hush');
  });

  it('refuses a namespace that is not registered', async () => {
    const err = await errorOf(
      callUnary(admin, 'Get', { namespace: UNREGISTERED_NAMESPACE, type: PlainThings.type, id: 'lost' }),
    );
    expect(err.code).toBe(status.PERMISSION_DENIED);
    expect(err.details).toBe(`namespace "${UNREGISTERED_NAMESPACE}" is not registered`);
  });

  it('refuses one-to-many routing, as apid does for COSI', async () => {
    const err = await errorOf(
      callUnary(reader, 'Get', { ...plain, id: 'one' }, withMetadata({ nodes: 'a,b' })),
    );
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    expect(err.details).toContain('one-2-many proxying is not supported for method /cosi.resource.State/Get');
  });

  it('serves the resource definitions talosctl resolves kinds with', async () => {
    const items = await callStream(reader, 'List', {
      namespace: 'meta',
      type: 'ResourceDefinitions.meta.cosi.dev',
    });
    const ids = items.map((i) => (i.resource as { metadata: Reply }).metadata.id);
    expect(ids).toContain(PlainThings.type.toLowerCase());
  });
});
