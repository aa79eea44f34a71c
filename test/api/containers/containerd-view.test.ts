import { describe, expect, it } from 'vitest';
import { containerdViews, groupByPod } from '../../../src/api/containers/index.js';
import type { ImageRecord } from '../../../src/containerd/index.js';

const image = (name: string, digest: string): ImageRecord => ({
  name,
  labels: {},
  target: { mediaType: 'application/vnd.oci.image.manifest.v1+json', digest, size: 1 },
  createdAt: undefined,
});

describe('containerdViews', () => {
  const k8s = {
    'io.kubernetes.pod.name': 'web',
    'io.kubernetes.pod.namespace': 'default',
  };
  const views = containerdViews(
    [
      { id: 'etcd', image: 'ghcr.io/etcd:1', labels: {} },
      { id: 'no-task', image: '', labels: {} },
      { id: 'abc', image: 'pause:1', labels: k8s },
      { id: 'def', image: 'sha256:d2', labels: { ...k8s, 'io.kubernetes.container.name': 'app' } },
    ],
    [
      { containerId: 'etcd', pid: 10, status: 'RUNNING' },
      { containerId: 'abc', pid: 11, status: 'RUNNING' },
      { containerId: 'def', pid: 12, status: 'STOPPED' },
    ],
    [image('ghcr.io/etcd:1', 'sha256:d1'), image('pause:1', 'sha256:p'), image('sha256:d2', 'sha256:d2')],
  );

  it('skips a container without a task; names images through the list, not by digest alone', () => {
    expect(views.map((v) => [v.display, v.name, v.image, v.pid, v.status, v.podName])).toEqual([
      ['etcd', 'etcd', 'ghcr.io/etcd:1', 10, 'RUNNING', 'etcd'],
      ['default/web', 'abc', 'pause:1', 11, 'RUNNING', 'default/web'],
      ['default/web:app', 'app', 'sha256:d2', 12, 'STOPPED', 'default/web'],
    ]);
  });

  it('groups by pod in the order pods first appear', () => {
    expect(groupByPod(views).map((p) => [p.name, p.containers.map((c) => c.id)])).toEqual([
      ['etcd', ['etcd']],
      ['default/web', ['abc', 'def']],
    ]);
  });
});
