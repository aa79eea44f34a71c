// The API server's admission control, audit policy and authorization configs from real generated configs:
// what a control plane gets by default, the user's settings, nothing on a worker, and the controllers
// following the config.
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  admissionControlConfigOf,
  ControlPlaneAdmissionControlController,
} from '../../../controllers/k8s/control-plane-admission-control.js';
import {
  auditPolicyConfigOf,
  ControlPlaneAuditPolicyController,
} from '../../../controllers/k8s/control-plane-audit-policy.js';
import {
  authorizationConfigOf,
  authorizersOf,
  ControlPlaneAuthorizationController,
} from '../../../controllers/k8s/control-plane-authorization.js';
import { MachineConfig } from '../../../resources/config/index.js';
import {
  ADMISSION_CONTROL_CONFIG_ID,
  AdmissionControlConfig,
  AUDIT_POLICY_CONFIG_ID,
  AUTHORIZATION_CONFIG_ID,
  AuditPolicyConfig,
  AuthorizationConfig,
  K8S_CONTROL_PLANE_NAMESPACE,
} from '../../../resources/k8s/index.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { type Cluster, machineConfig, mintCluster, startRuntime } from '../secrets/env.js';

// minting a cluster's keys (RSA-4096 among them) takes seconds: once for the file
let cluster: Cluster;
beforeAll(async () => {
  cluster = await mintCluster();
}, 120_000);

describe('the API server’s file configs', () => {
  it('carry the generated defaults on a control plane, nothing on a worker', async () => {
    const { controlplane, worker } = cluster;
    expect(admissionControlConfigOf(worker)).toBeUndefined();
    expect(auditPolicyConfigOf(worker)).toBeUndefined();
    expect(authorizationConfigOf(worker)).toBeUndefined();
    expect(admissionControlConfigOf(controlplane)?.config.map((p) => p.name)).toEqual(['PodSecurity']);
    expect(auditPolicyConfigOf(controlplane)).toEqual({
      config: { apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'Metadata' }] },
    });
    const authz = authorizationConfigOf(controlplane)!;
    expect(authz.image).toMatch(/^registry\.k8s\.io\/kube-apiserver:v/);
    expect(authz.config).toEqual([
      { type: 'Node', name: 'node' },
      { type: 'RBAC', name: 'rbac' },
    ]);
  });

  it('place Node and RBAC around the user’s authorizers; none before the file existed (1.29)', async () => {
    const hook = { type: 'Webhook', name: 'hook', webhook: { timeout: '3s' } };
    expect(authorizersOf([hook])).toEqual([
      { type: 'Node', name: 'node' },
      { type: 'RBAC', name: 'rbac' },
      hook,
    ]);
    const rbacLast = [{ type: 'Node', name: 'n' }, hook, { type: 'RBAC', name: 'r' }];
    expect(authorizersOf(rbacLast)).toEqual(rbacLast);
    const { controlplane } = cluster;
    const old = applyPatches(controlplane, [
      loadPatch('cluster:\n  apiServer:\n    image: registry.k8s.io/kube-apiserver:v1.28.4\n'),
    ]);
    expect(authorizationConfigOf(old)).toEqual({
      image: 'registry.k8s.io/kube-apiserver:v1.28.4',
      config: [],
    });
  });

  it('follow the config, and go when the node is no longer a control plane', async ({ signal }) => {
    const env = startRuntime([
      ControlPlaneAdmissionControlController,
      ControlPlaneAuditPolicyController,
      ControlPlaneAuthorizationController,
    ]);
    onTestFinished(env.stop);
    const { controlplane, worker } = cluster;
    await env.state.create(machineConfig(controlplane));
    const ns = { namespace: K8S_CONTROL_PLANE_NAMESPACE, signal };
    await assertResource(env.state, AdmissionControlConfig, ADMISSION_CONTROL_CONFIG_ID, () => {}, ns);
    await assertResource(env.state, AuthorizationConfig, AUTHORIZATION_CONFIG_ID, () => {}, ns);
    await env.state.modify(MachineConfig.new('config', 'v1alpha1'), (r) => {
      r.spec = machineConfig(
        applyPatches(controlplane, [
          loadPatch(
            'cluster:\n  apiServer:\n    auditPolicy:\n' +
              '      apiVersion: audit.k8s.io/v1\n      kind: Policy\n      rules: [{ level: None }]\n',
          ),
        ]),
      ).spec;
    });
    await assertResource(
      env.state,
      AuditPolicyConfig,
      AUDIT_POLICY_CONFIG_ID,
      (r) => expect(r.spec.config.rules).toEqual([{ level: 'None' }]),
      ns,
    );
    await env.state.modify(MachineConfig.new('config', 'v1alpha1'), (r) => {
      r.spec = machineConfig(worker).spec;
    });
    await assertNoResource(env.state, AuditPolicyConfig, AUDIT_POLICY_CONFIG_ID, ns);
    await assertNoResource(env.state, AdmissionControlConfig, ADMISSION_CONTROL_CONFIG_ID, ns);
  });
});
