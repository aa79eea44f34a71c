import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { edgeMessage } from '../../../src/api/inspect/index.js';
import type { DependencyGraph } from '../../../src/cosi/controller/dependency.js';
import { callUnary, errorOf } from '../fixtures.js';
import { type Msg, only, useServer } from '../machine/harness.js';

const GRAPH: DependencyGraph = {
  edges: [
    {
      controllerName: 'a.Ctl',
      resourceNamespace: 'ns',
      resourceType: 'Out',
      resourceId: '',
      edgeType: 'OutputExclusive',
    },
    {
      controllerName: 'b.Ctl',
      resourceNamespace: 'ns',
      resourceType: 'Out2',
      resourceId: '',
      edgeType: 'OutputShared',
    },
    {
      controllerName: 'a.Ctl',
      resourceNamespace: 'ns',
      resourceType: 'In',
      resourceId: 'x',
      edgeType: 'InputStrong',
    },
    {
      controllerName: 'b.Ctl',
      resourceNamespace: 'ns',
      resourceType: 'In',
      resourceId: '',
      edgeType: 'InputWeak',
    },
    {
      controllerName: 'b.Ctl',
      resourceNamespace: 'ns',
      resourceType: 'Out',
      resourceId: '',
      edgeType: 'InputDestroyReady',
    },
  ],
};

const h = useServer({ dependencyGraph: () => GRAPH });
const bare = useServer();

describe('edgeMessage', () => {
  it.each([
    ['OutputExclusive', 'OUTPUT_EXCLUSIVE'],
    ['OutputShared', 'OUTPUT_SHARED'],
    ['InputStrong', 'INPUT_STRONG'],
    ['InputWeak', 'INPUT_WEAK'],
    ['InputDestroyReady', 'INPUT_DESTROY_READY'],
  ] as const)('%s → %s', (edgeType, want) => {
    expect(edgeMessage({ ...GRAPH.edges[0]!, edgeType }).edge_type).toBe(want);
  });

  it('refuses queue-controller edges, which the wire enum lacks (as upstream)', () => {
    expect(() => edgeMessage({ ...GRAPH.edges[0]!, edgeType: 'InputQPrimary' })).toThrow(
      /unexpected edge type/,
    );
  });
});

describe('InspectService.ControllerRuntimeDependencies over mTLS', () => {
  it('returns every edge of the graph', async () => {
    const m = only(await callUnary(h.client('inspect.InspectService'), 'ControllerRuntimeDependencies', {}));
    const edges = m.edges as Msg[];
    expect(edges).toHaveLength(GRAPH.edges.length);
    expect(edges[2]).toEqual({
      controller_name: 'a.Ctl',
      edge_type: 'INPUT_STRONG',
      resource_namespace: 'ns',
      resource_type: 'In',
      resource_id: 'x',
    });
  });

  it('is UNIMPLEMENTED when no runtime is given', async () => {
    const err = await errorOf(
      callUnary(bare.client('inspect.InspectService'), 'ControllerRuntimeDependencies', {}),
    );
    expect(err.code).toBe(status.UNIMPLEMENTED);
  });
});
