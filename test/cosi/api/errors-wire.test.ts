// Every state error class crosses the wire with upstream's status code and comes back as the same class.
import { type ServiceError, status } from '@grpc/grpc-js';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { GrpcCoreState } from '../../../src/cosi/api/client.js';
import { RemoteCallError } from '../../../src/cosi/api/errors.js';
import { idRegexpMatch } from '../../../src/cosi/resource/id-query.js';
import type { CoreState } from '../../../src/cosi/state/core.js';
import {
  isConflict,
  isInvalidBookmark,
  isNotFound,
  isOwnerConflict,
  isPhaseConflict,
  StateError,
  type StateErrorCode,
  stateErrorCode,
} from '../../../src/cosi/state/errors.js';
import { PathResource } from '../../../src/cosi/testing/resources.js';
import { type PairOptions, pair } from './harness.js';

const NS = 'default';

async function setup(opts: PairOptions = {}) {
  const p = await pair(opts);
  onTestFinished(p.close);
  return p;
}

async function failure(p: Promise<unknown>): Promise<StateError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(StateError);
    return e as StateError;
  }
  throw new Error('expected the call to fail');
}

/** wireCode is the status the server sent, kept as the client error's cause. */
const wireCode = (e: Error) => (e.cause as ServiceError).code;

interface Case {
  name: string;
  code: StateErrorCode;
  wire: status;
  run(core: CoreState, remote: GrpcCoreState): Promise<unknown>;
}

const created = async (core: CoreState, id: string, owner = '') => {
  const r = PathResource.new(NS, id);
  await core.create(r, { owner });
  return r;
};

const cases: Case[] = [
  {
    name: 'get of a missing resource',
    code: 'not-found',
    wire: status.NOT_FOUND,
    run: (_, remote) => remote.get(PathResource.pointer('missing')),
  },
  {
    name: 'create of an existing resource',
    code: 'already-exists',
    wire: status.ALREADY_EXISTS,
    run: async (core, remote) => remote.create(await created(core, 'a')),
  },
  {
    name: 'update with a stale version',
    code: 'version-conflict',
    wire: status.FAILED_PRECONDITION,
    run: async (core, remote) => {
      const r = await created(core, 'a');
      const stale = r.deepCopy();
      await remote.update(r);
      return remote.update(stale);
    },
  },
  {
    name: 'update of a resource owned by someone else',
    code: 'owner-conflict',
    wire: status.PERMISSION_DENIED,
    run: async (core, remote) => remote.update(await created(core, 'a', 'ctrl')),
  },
  {
    name: 'update of a tearing-down resource',
    code: 'phase-conflict',
    wire: status.INVALID_ARGUMENT,
    run: async (core, remote) => {
      const r = await created(core, 'a');
      r.metadata.phase = 'tearingDown';
      await core.update(r);
      return remote.update(r);
    },
  },
  {
    name: 'destroy with pending finalizers',
    code: 'pending-finalizers',
    wire: status.FAILED_PRECONDITION,
    run: async (core, remote) => {
      const r = await created(core, 'a');
      r.metadata.finalizers.add('f');
      await core.update(r);
      return remote.destroy(r.metadata);
    },
  },
  {
    name: 'destroy of a resource owned by someone else',
    code: 'owner-conflict',
    wire: status.PERMISSION_DENIED,
    run: async (core, remote) => remote.destroy((await created(core, 'a', 'ctrl')).metadata),
  },
  {
    name: 'teardown of a resource owned by someone else',
    code: 'owner-conflict',
    wire: status.PERMISSION_DENIED,
    run: async (core, remote) => remote.teardown((await created(core, 'a', 'ctrl')).metadata),
  },
  {
    name: 'teardown of a missing resource',
    code: 'not-found',
    wire: status.NOT_FOUND,
    run: (_, remote) => remote.teardown(PathResource.pointer('missing')),
  },
  {
    name: 'watch from a bookmark this state never issued',
    code: 'invalid-bookmark',
    wire: status.FAILED_PRECONDITION,
    run: (_, remote) =>
      remote.watchKind(
        { namespace: NS, type: PathResource.type },
        { startFromBookmark: new Uint8Array(16).fill(7) },
      ),
  },
  {
    name: 'watch with both tail events and a bookmark',
    code: 'invalid-argument',
    wire: status.INVALID_ARGUMENT,
    run: (_, remote) =>
      remote.watch(PathResource.pointer('a'), { tailEvents: 1, startFromBookmark: new Uint8Array(16) }),
  },
];

describe('state errors over gRPC', () => {
  it.each(cases)('$name: $wire on the wire, $code again on the client', async ({ code, wire, run }) => {
    const { core, remote } = await setup();
    const e = await failure(run(core, remote));
    expect(stateErrorCode(e)).toBe(code);
    expect(wireCode(e)).toBe(wire);
  });

  it('keeps the messages and the conflicting resource, so conflict filters still work', async () => {
    const { core, remote } = await setup();
    const r = PathResource.new(NS, 'a');
    await core.create(r);
    const e = await failure(remote.create(r));
    expect(e.message).toBe(`resource ${PathResource.type}(${NS}/a) already exists`);
    expect(isConflict(e, { type: PathResource.type, namespace: NS })).toBe(true);
    expect(isConflict(e, { type: 'Other.test.cosi.dev' })).toBe(false);
    expect(isNotFound(await failure(remote.get(PathResource.pointer('nope'))))).toBe(true);
  });

  it('classifies like upstream when the finer class is unknown to the predicates', async () => {
    const { core, remote } = await setup();
    const owned = PathResource.new(NS, 'o');
    await core.create(owned, { owner: 'ctrl' });
    expect(isOwnerConflict(await failure(remote.update(owned)))).toBe(true);
    const tearing = PathResource.new(NS, 't');
    await core.create(tearing);
    tearing.metadata.phase = 'tearingDown';
    await core.update(tearing);
    const phase = await failure(remote.update(tearing));
    expect(isPhaseConflict(phase) && isConflict(phase)).toBe(true);
    const bad = await failure(
      remote.watch(PathResource.pointer('x'), { startFromBookmark: new Uint8Array([1, 2, 3]) }),
    );
    expect(isInvalidBookmark(bad)).toBe(true);
  });

  it('denies writes on a read-only server with PERMISSION_DENIED', async () => {
    const { core, remote } = await setup({ readOnly: true });
    await core.create(PathResource.new(NS, 'a'));
    await expect(remote.get(PathResource.pointer('a'))).resolves.toBeDefined();
    const e = await failure(remote.create(PathResource.new(NS, 'b')));
    expect(wireCode(e)).toBe(status.PERMISSION_DENIED);
    expect(stateErrorCode(e)).toBe('unsupported');
  });

  it('reports a rule denial that is not a state error as a RemoteCallError', async () => {
    const { remote } = await setup({
      rule: ({ type }) => {
        if (type !== PathResource.type)
          throw new Error(`resource type ${JSON.stringify(type)} is not supported`);
      },
    });
    const err = await remote.list({ namespace: NS, type: 'Others.test.cosi.dev' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteCallError);
    expect((err as RemoteCallError).code).toBe(status.PERMISSION_DENIED);
    expect((err as RemoteCallError).details).toBe('resource type "Others.test.cosi.dev" is not supported');
    await expect(
      remote.list({ namespace: NS, type: PathResource.type }, { idQuery: idRegexpMatch('a') }),
    ).resolves.toEqual([]);
  });
});
