// keelctl health (the node's HealthCheck progress stream) and inspect dependencies (dot output).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiMessage, serverStreamHandler, unaryHandler } from '../../../src/api/handlers.js';
import { dependencyGraph } from '../../../src/cli/commands/inspect.js';
import { run, startNode, type TestNode, type Workdir, workdir } from '../fixtures.js';

const requests: ApiMessage[] = [];
let node: TestNode;
let wd: Workdir;
const env = () => ({ TALOSCONFIG: wd.talosconfig });

const EDGES = [
  {
    controller_name: 'network.HostnameStatusController',
    edge_type: 'OUTPUT_EXCLUSIVE',
    resource_type: 'HostnameStatuses.net.talos.dev',
  },
  {
    controller_name: 'network.HostnameStatusController',
    edge_type: 'INPUT_WEAK',
    resource_type: 'HostnameSpecs.net.talos.dev',
    resource_id: 'hostname',
  },
  {
    controller_name: 'config.MachineTypeController',
    edge_type: 'INPUT_STRONG',
    resource_type: 'MachineConfigs.config.talos.dev',
  },
  {
    controller_name: 'config.MachineTypeController',
    edge_type: 'INPUT_DESTROY_READY',
    resource_type: 'MachineTypes.config.talos.dev',
  },
];

beforeAll(async () => {
  node = await startNode('node-a', {
    '/cluster.ClusterService/HealthCheck': serverStreamHandler(async (req, send) => {
      requests.push(req);
      await send({ message: 'discovered nodes: ["10.5.0.2"]' });
      await send({ message: 'waiting for etcd to be healthy: OK' });
    }),
    '/inspect.InspectService/ControllerRuntimeDependencies': unaryHandler(async () => ({
      messages: [{ edges: EDGES }],
    })),
  });
  wd = await workdir(node.server.address);
});
afterAll(async () => {
  await node?.server.close({ signal: AbortSignal.timeout(5_000) });
  wd?.remove();
});

describe('keelctl health', () => {
  it('prints the node’s progress messages and passes the cluster layout', async () => {
    const r = await run(
      [
        'health',
        '--control-plane-nodes',
        '10.5.0.2',
        '--worker-nodes',
        '10.5.0.3,10.5.0.4',
        '--wait-timeout',
        '5m',
      ],
      env(),
    );
    expect(r.stderr).toBe('discovered nodes: ["10.5.0.2"]\nwaiting for etcd to be healthy: OK\n');
    expect(r.code).toBe(0);
    expect(requests.at(-1)).toMatchObject({
      wait_timeout: { seconds: '300' },
      cluster_info: { control_plane_nodes: ['10.5.0.2'], worker_nodes: ['10.5.0.3', '10.5.0.4'] },
    });
  });
});

describe('keelctl inspect dependencies', () => {
  it('draws controllers as boxes and resource types as notes, sorted by id in byte order, without destroy-ready inputs', () => {
    expect(dependencyGraph(EDGES)).toBe(
      [
        'digraph  {',
        '\t',
        '\tn3[fillcolor="azure2",label="HostnameSpecs.net.talos.dev",shape="note",style="filled"];',
        '\tn2[fillcolor="azure2",label="HostnameStatuses.net.talos.dev",shape="note",style="filled"];',
        '\tn5[fillcolor="azure2",label="MachineConfigs.config.talos.dev",shape="note",style="filled"];',
        '\tn6[fillcolor="azure2",label="MachineTypes.config.talos.dev",shape="note",style="filled"];',
        '\tn4[label="config.MachineTypeController",shape="box"];',
        '\tn1[label="network.HostnameStatusController",shape="box"];',
        '\tn3->n1[label="hostname",style="dotted"];',
        '\tn5->n4[style="solid"];',
        '\tn1->n2[style="bold"];',
        '\t',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('prints the graph fetched from the node', async () => {
    const r = await run(['inspect', 'dependencies'], env());
    expect(r.stdout).toBe(dependencyGraph(EDGES));
    expect(r.code).toBe(0);
  });
});
