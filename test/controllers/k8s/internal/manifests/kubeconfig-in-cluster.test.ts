// 11-kube-config-in-cluster: the kubeconfig host-network pods reach the API server with.

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kubeconfigInCluster } from '../../../../../controllers/k8s/internal/manifests/kubeconfig-in-cluster.js';

describe('the in-cluster kubeconfig', () => {
  it('is a kube-system ConfigMap naming the server, the service account’s CA and token', () => {
    const cm = kubeconfigInCluster('https://127.0.0.1:7445');
    expect(cm).toMatchObject({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'kubeconfig-in-cluster', namespace: 'kube-system' },
    });
    expect(parse(cm.data.kubeconfig!)).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'local',
          cluster: {
            server: 'https://127.0.0.1:7445',
            'certificate-authority': '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
          },
        },
      ],
      contexts: [{ name: 'local', context: { cluster: 'local', user: 'service-account' } }],
      'current-context': 'local',
      users: [
        {
          name: 'service-account',
          user: { tokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token' },
        },
      ],
    });
    // client-go writes its keys sorted
    expect(cm.data.kubeconfig).toMatch(/^apiVersion: v1\nclusters:\n- cluster:\n {4}certificate-authority: /);
  });
});
