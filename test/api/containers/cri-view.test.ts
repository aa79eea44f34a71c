import { describe, expect, it } from 'vitest';
import { containerInfo, criPods, parseContainerDisplay } from '../../../src/api/containers/index.js';
import type { StatusRecord } from '../../../src/containerd/index.js';

const status = (state: string, info?: object): StatusRecord => ({
  state,
  logPath: '/var/log/pods/x/app/0.log',
  info: info ? { info: JSON.stringify(info) } : {},
});

describe('criPods', () => {
  const pods = criPods({
    sandboxes: [
      {
        sandbox: {
          id: 'pod1',
          name: 'web',
          namespace: 'default',
          uid: 'u1',
          state: 'SANDBOX_READY',
          labels: {},
        },
        status: status('SANDBOX_READY', {
          pid: 42,
          image: 'sha256:pause',
          runtimeSpec: {
            linux: { namespaces: [{ type: 'pid' }, { type: 'network', path: '/var/run/netns/cni-1' }] },
          },
        }),
      },
    ],
    containers: [
      {
        container: {
          id: '0123456789abcdef',
          podSandboxId: 'pod1',
          name: 'app',
          imageRef: 'sha256:app',
          state: 'CONTAINER_RUNNING',
          labels: { 'io.kubernetes.pod.name': 'web', 'io.kubernetes.pod.namespace': 'default' },
          annotations: {},
        },
        status: status('CONTAINER_RUNNING', { pid: 43 }),
      },
      {
        container: {
          id: 'orphan',
          podSandboxId: 'gone',
          name: 'x',
          imageRef: '',
          state: 'CONTAINER_EXITED',
          labels: {},
          annotations: {},
        },
        status: status('CONTAINER_EXITED'),
      },
    ],
    images: [
      { id: 'sha256:pause', repoTags: ['registry.k8s.io/pause:3.10.2', 'pause:latest'] },
      { id: 'sha256:app', repoTags: [] },
    ],
  });

  it('lists the sandbox first (pid, first tag, netns) and its containers, not an orphan', () => {
    expect(pods).toHaveLength(1);
    const [pod] = pods;
    expect(pod!.containers.map((c) => containerInfo('k8s.io', pod!, c))).toEqual([
      {
        namespace: 'k8s.io',
        id: 'default/web',
        image: 'registry.k8s.io/pause:3.10.2',
        pid: 42,
        status: 'SANDBOX_READY',
        pod_id: 'default/web',
        name: 'default/web',
        network_namespace: 'cni-1',
        internal_id: 'pod1',
        uid: 'u1',
      },
      {
        namespace: 'k8s.io',
        id: 'default/web:app:0123456789ab',
        image: 'sha256:app',
        pid: 43,
        status: 'CONTAINER_RUNNING',
        pod_id: 'default/web',
        name: 'app',
        network_namespace: '',
        internal_id: '0123456789abcdef',
        uid: '',
      },
    ]);
  });

  it('ignores verbose info it cannot parse', () => {
    const [pod] = criPods({
      sandboxes: [
        {
          sandbox: { id: 'p', name: 'n', namespace: 'ns', uid: '', state: 'SANDBOX_READY', labels: {} },
          status: { state: 'SANDBOX_READY', logPath: '', info: { info: '{not json' } },
        },
      ],
      containers: [],
      images: [],
    });
    expect(pod!.containers[0]).toMatchObject({ pid: 0, image: '', networkNamespace: '' });
  });
});

describe('parseContainerDisplay', () => {
  it.each([
    ['plain', { namespace: '', pod: '', name: 'plain', shortId: '' }],
    ['ns/pod', { namespace: 'ns', pod: 'pod', name: '', shortId: '' }],
    ['ns/pod:app', { namespace: 'ns', pod: 'pod', name: 'app', shortId: '' }],
    ['ns/pod:app:abc:d', { namespace: 'ns', pod: 'pod', name: 'app', shortId: 'abc:d' }],
  ])('%s', (id, want) => expect(parseContainerDisplay(id)).toEqual(want));
});
