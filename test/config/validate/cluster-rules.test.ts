// One valid and one invalid sample per `cluster.*` rule, after upstream's ClusterConfig.Validate and ValidateCNI.
import { describe } from 'vitest';
import { type RuleCase, ruleTable } from './rule-table.js';

const cni = (c: Record<string, unknown>) => ({ cluster: { network: { cni: c } } });
const authz = (list: Record<string, unknown>[], extraArgs: Record<string, string> = {}) => ({
  cluster: { apiServer: { authorizationConfig: list, extraArgs } },
});
const rbac = [
  { type: 'Node', name: 'node' },
  { type: 'RBAC', name: 'rbac' },
];

const cases: RuleCase[] = [
  {
    rule: 'CNI name is flannel, custom or none',
    role: 'controlplane',
    valid: cni({ name: 'none' }),
    invalid: cni({ name: 'cilium' }),
    path: 'cluster.network.cni.name',
    error: 'cni name should be one of ["flannel", "custom", "none"]',
  },
  {
    rule: 'custom CNI URLs name a host',
    role: 'controlplane',
    valid: cni({ name: 'custom', urls: ['https://example.com/cni.yaml'] }),
    invalid: cni({ name: 'custom', urls: ['https:///cni.yaml'] }),
    path: 'cluster.network.cni.urls[0]',
    error: 'hostname must not be blank',
  },
  {
    rule: 'custom CNI URLs have a valid port',
    role: 'controlplane',
    valid: cni({ name: 'custom', urls: ['https://example.com:8443/cni.yaml'] }),
    invalid: cni({ name: 'custom', urls: ['https://example.com:0/cni.yaml'] }),
    path: 'cluster.network.cni.urls[0]',
    error: 'port number must be between 1 and 65535',
  },
  {
    rule: 'network policies are a flannel option',
    role: 'controlplane',
    valid: cni({ name: 'flannel', flannel: { kubeNetworkPoliciesEnabled: true } }),
    invalid: cni({ name: 'none', flannel: { kubeNetworkPoliciesEnabled: true } }),
    path: 'cluster.network.cni.flannel.kubeNetworkPoliciesEnabled',
    error: '"flannelKubeNetworkPoliciesEnabled" should not be enabled for "none" CNI',
  },
  {
    rule: 'external cloud provider manifests are URLs with a host',
    valid: {
      cluster: { externalCloudProvider: { enabled: true, manifests: ['https://example.com/ccm.yaml'] } },
    },
    invalid: { cluster: { externalCloudProvider: { enabled: true, manifests: ['ccm.yaml'] } } },
    path: 'cluster.externalCloudProvider.manifests[0]',
    error: 'invalid external cloud provider manifest url "ccm.yaml": hostname must not be blank',
  },
  {
    rule: 'authorizer type is Node, RBAC or Webhook',
    role: 'controlplane',
    valid: authz(rbac),
    invalid: authz([{ type: 'ABAC', name: 'abac' }]),
    path: 'cluster.apiServer.authorizationConfig[0].type',
    error: 'authorizer type ABAC is not allowed, allowed types are [Node RBAC Webhook]',
  },
  {
    rule: 'authorizer name is required',
    role: 'controlplane',
    valid: authz(rbac),
    invalid: authz([{ type: 'RBAC' }]),
    path: 'cluster.apiServer.authorizationConfig[0].name',
    error: 'authorizer name must be set',
  },
  {
    rule: 'authorizer type is required',
    role: 'controlplane',
    valid: authz(rbac),
    invalid: authz([{ name: 'rbac' }]),
    path: 'cluster.apiServer.authorizationConfig[0].type',
    error: 'authorizer type must be set',
  },
  {
    rule: 'authorization-mode flag conflicts with authorizationConfig',
    role: 'controlplane',
    valid: authz(rbac, { 'audit-log-maxage': '30' }),
    invalid: authz(rbac, { 'authorization-mode': 'Node,RBAC' }),
    path: 'cluster.apiServer.extraArgs.authorization-mode',
    error: 'authorization-mode cannot be used in conjunction with AuthorizationConfig',
  },
  {
    rule: 'authorization-webhook flags conflict with authorizationConfig',
    role: 'controlplane',
    valid: authz(rbac),
    invalid: authz(rbac, { 'authorization-webhook-version': 'v1' }),
    path: 'cluster.apiServer.extraArgs.authorization-webhook-version',
    error: 'authorization-webhook-* flags cannot be used in conjunction with AuthorizationConfig',
  },
  {
    rule: 'apiserver resources are cpu and memory',
    role: 'controlplane',
    valid: { cluster: { apiServer: { resources: { requests: { cpu: 1, memory: '1Gi' } } } } },
    invalid: { cluster: { apiServer: { resources: { requests: { gpu: 1 } } } } },
    path: 'cluster.apiServer.resources.requests.gpu',
    error: 'apiserver resource validation failed: unsupported pod resource "gpu"',
  },
  {
    rule: 'controller-manager resources are cpu and memory',
    role: 'controlplane',
    valid: { cluster: { controllerManager: { resources: { limits: { memory: '512Mi' } } } } },
    invalid: { cluster: { controllerManager: { resources: { limits: { storage: '1Gi' } } } } },
    path: 'cluster.controllerManager.resources.limits.storage',
    error: 'controller-manager resource validation failed: unsupported pod resource "storage"',
  },
  {
    rule: 'scheduler resources are cpu and memory',
    role: 'controlplane',
    valid: { cluster: { scheduler: { resources: { limits: { cpu: '500m' } } } } },
    invalid: { cluster: { scheduler: { resources: { limits: { 'ephemeral-storage': '1Gi' } } } } },
    path: 'cluster.scheduler.resources.limits.ephemeral-storage',
    error: 'scheduler resource validation failed: unsupported pod resource "ephemeral-storage"',
  },
];

describe('cluster rules', () => ruleTable(cases));
