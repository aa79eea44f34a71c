// 11-core-dns's Deployment: two CoreDNS replicas spread over nodes, allowed on control planes and on nodes
// a cloud provider has not initialised yet, resolving through the host (dnsPolicy Default) with the
// Corefile of coredns.ts.
import type { BootstrapManifestsConfigSpec } from '../../../../resources/k8s/index.js';
import { COREDNS } from './coredns.js';
import { KUBE_SYSTEM } from './objects.js';
import type { Deployment, Probe } from './types.js';

const SELECTOR = { 'k8s-app': 'kube-dns' };

const httpProbe = (path: string, port: number): Probe['httpGet'] => ({ path, port, scheme: 'HTTP' });

export const coreDNSDeployment = (cfg: Pick<BootstrapManifestsConfigSpec, 'coreDNSImage'>): Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: COREDNS,
    namespace: KUBE_SYSTEM,
    labels: { ...SELECTOR, 'kubernetes.io/name': 'CoreDNS' },
  },
  spec: {
    replicas: 2,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
    selector: { matchLabels: { ...SELECTOR } },
    template: {
      metadata: { labels: { ...SELECTOR } },
      spec: {
        nodeSelector: { 'kubernetes.io/os': 'linux' },
        affinity: {
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              {
                weight: 100,
                podAffinityTerm: {
                  labelSelector: {
                    matchExpressions: [{ key: 'k8s-app', operator: 'In', values: ['kube-dns'] }],
                  },
                  topologyKey: 'kubernetes.io/hostname',
                },
              },
            ],
          },
        },
        serviceAccountName: COREDNS,
        priorityClassName: 'system-cluster-critical',
        tolerations: [
          { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
          { key: 'node.cloudprovider.kubernetes.io/uninitialized', operator: 'Exists', effect: 'NoSchedule' },
        ],
        containers: [
          {
            name: COREDNS,
            image: cfg.coreDNSImage,
            imagePullPolicy: 'IfNotPresent',
            resources: { limits: { memory: '170Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
            // under the 170Mi limit, so the Go runtime collects before the kernel kills the container
            env: [{ name: 'GOMEMLIMIT', value: '161MiB' }],
            args: ['-conf', '/etc/coredns/Corefile'],
            volumeMounts: [{ name: 'config-volume', mountPath: '/etc/coredns', readOnly: true }],
            ports: [
              { name: 'dns', protocol: 'UDP', containerPort: 53 },
              { name: 'dns-tcp', protocol: 'TCP', containerPort: 53 },
              { name: 'metrics', protocol: 'TCP', containerPort: 9153 },
            ],
            livenessProbe: {
              httpGet: httpProbe('/health', 8080),
              initialDelaySeconds: 60,
              timeoutSeconds: 5,
              successThreshold: 1,
              failureThreshold: 5,
            },
            readinessProbe: { httpGet: httpProbe('/ready', 8181) },
            securityContext: {
              allowPrivilegeEscalation: false,
              capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] },
              readOnlyRootFilesystem: true,
            },
          },
        ],
        dnsPolicy: 'Default',
        volumes: [
          {
            name: 'config-volume',
            configMap: { name: COREDNS, items: [{ key: 'Corefile', path: 'Corefile' }] },
          },
        ],
      },
    },
  },
});
