// Malformed requests get well-formed errors, and the server keeps serving (upstream once crashed on unset sub-messages).
import { status } from '@grpc/grpc-js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ERROR_CLASS_KEY } from '../../../src/cosi/api/status.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { PathResource } from '../../../src/cosi/testing/resources.js';
import { serve } from './harness.js';
import { type Msg, rawClient, reader } from './raw-client.js';

const NS = 'default';
const TYPE = PathResource.type;

async function setup() {
  const core = newInmemState();
  const served = await serve(core);
  const raw = rawClient(served.target);
  onTestFinished(() => {
    raw.close();
    served.stop();
  });
  // Proof of life after the bad requests: a full create and get still work.
  const stillServing = async () => {
    const id = `alive-${Math.random().toString(36).slice(2)}`;
    await raw.unary('Create', {
      resource: {
        metadata: { namespace: NS, type: TYPE, id, version: 'undefined', phase: 'running' },
        spec: {},
      },
    });
    const got = await raw.unary('Get', { namespace: NS, type: TYPE, id });
    expect((got.resource as { metadata: { version: string } }).metadata.version).toBe('1');
  };
  return { core, raw, stillServing };
}

const streamError = async (s: ReturnType<ReturnType<typeof rawClient>['stream']>) => {
  const e = await reader(s).end();
  if (!e) throw new Error('expected the stream to fail');
  return e;
};

describe('malformed requests', () => {
  it('reject missing resources and sub-messages with INVALID_ARGUMENT', async () => {
    const { raw, stillServing } = await setup();
    const bad: [Parameters<typeof raw.unary>[0], Msg, string][] = [
      ['Create', {}, 'resource is missing'],
      ['Create', { resource: { spec: {} } }, 'resource.metadata is missing'],
      [
        'Create',
        { resource: { metadata: { namespace: NS, type: TYPE, id: 'a' } } },
        'resource.spec is missing',
      ],
      ['Update', {}, 'new_resource is missing'],
      ['Update', { new_resource: {} }, 'new_resource.metadata is missing'],
    ];
    for (const [method, req, details] of bad) {
      const e = await raw.unaryError(method, req);
      expect([method, e.code, e.details]).toEqual([method, status.INVALID_ARGUMENT, details]);
      expect(e.metadata.get(ERROR_CLASS_KEY)).toEqual(['bad-request']);
    }
    await stillServing();
  });

  it('treat absent options as defaults', async () => {
    const { core, raw, stillServing } = await setup();
    for (const method of ['Get', 'Destroy', 'Teardown', 'TeardownAndDestroy'] as const) {
      const e = await raw.unaryError(method, {});
      expect([method, e.code]).toEqual([method, status.NOT_FOUND]);
    }
    const r = PathResource.new(NS, 'a');
    await core.create(r);
    r.metadata.phase = 'tearingDown';
    await core.update(r);
    // no options: no owner and, with expected_phase absent, any phase
    const md = { namespace: NS, type: TYPE, id: 'a', version: '2', phase: 'tearingDown' };
    const res = await raw.unary('Update', { new_resource: { metadata: md, spec: {} } });
    expect((res.resource as { metadata: { version: string } }).metadata.version).toBe('3');
    const w = reader(raw.stream('Watch', { namespace: NS, type: TYPE }));
    expect(await w.next()).toEqual({});
    const list: Msg[] = [];
    for await (const m of raw.stream('List', {})) list.push(m);
    expect(list).toEqual([]);
    await stillServing();
  });

  it('reject unparsable versions and phases with INVALID_ARGUMENT', async () => {
    const { raw, stillServing } = await setup();
    const md = { namespace: NS, type: TYPE, id: 'v' };
    const version = await raw.unaryError('Create', {
      resource: { metadata: { ...md, version: 'one' }, spec: {} },
    });
    expect(version.code).toBe(status.INVALID_ARGUMENT);
    expect(version.details).toMatch(/^invalid resource: /);
    const phase = await raw.unaryError('Update', {
      new_resource: { metadata: { ...md, version: '1', phase: 'running' }, spec: {} },
      options: { expected_phase: 'sleeping' },
    });
    expect([phase.code, phase.details]).toEqual([
      status.INVALID_ARGUMENT,
      'invalid expected_phase "sleeping"',
    ]);
    await stillServing();
  });

  it('reject unknown label operators with UNIMPLEMENTED, in List and Watch', async () => {
    const { raw, stillServing } = await setup();
    const options = { label_query: [{ terms: [{ key: 'k', op: 42 }] }] };
    for (const s of [
      raw.stream('List', { namespace: NS, type: TYPE, options }),
      raw.stream('Watch', { namespace: NS, type: TYPE, options }),
    ]) {
      const e = await streamError(s);
      expect([e.code, e.details]).toEqual([status.UNIMPLEMENTED, 'unsupported label query operator: 42']);
    }
    await stillServing();
  });

  it('reject bad ID regexps with INVALID_ARGUMENT, in List and Watch', async () => {
    const { raw, stillServing } = await setup();
    const options = { id_query: { regexp: '(unclosed' } };
    for (const s of [
      raw.stream('List', { namespace: NS, type: TYPE, options }),
      raw.stream('Watch', { namespace: NS, type: TYPE, options }),
    ]) {
      const e = await streamError(s);
      expect(e.code).toBe(status.INVALID_ARGUMENT);
      expect(e.details).toMatch(/^failed to compile regexp: /);
    }
    await stillServing();
  });

  it('reject bootstrap contents and label queries on a single-resource watch with UNIMPLEMENTED', async () => {
    const { raw, stillServing } = await setup();
    const boot = await streamError(
      raw.stream('Watch', { namespace: NS, type: TYPE, id: 'a', options: { bootstrap_contents: true } }),
    );
    expect([boot.code, boot.details]).toEqual([
      status.UNIMPLEMENTED,
      'bootstrap contents is not implemented for resource watch',
    ]);
    const labels = await streamError(
      raw.stream('Watch', { namespace: NS, type: TYPE, id: 'a', options: { label_query: [{ terms: [] }] } }),
    );
    expect([labels.code, labels.details]).toEqual([
      status.UNIMPLEMENTED,
      'label query is not implemented for resource watch',
    ]);
    await stillServing();
  });

  it('report a bookmark it never issued as FAILED_PRECONDITION', async () => {
    const { raw, stillServing } = await setup();
    const e = await streamError(
      raw.stream('Watch', {
        namespace: NS,
        type: TYPE,
        options: { start_from_bookmark: Buffer.from('junk') },
      }),
    );
    expect(e.code).toBe(status.FAILED_PRECONDITION);
    expect(e.metadata.get(ERROR_CLASS_KEY)).toEqual(['invalid-bookmark']);
    await stillServing();
  });
});
