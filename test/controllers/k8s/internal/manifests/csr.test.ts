// 01-csr-*: the bindings that let a kubelet get and renew its client certificate.
import { describe, expect, it } from 'vitest';
import {
  csrApproverRoleBinding,
  csrNodeBootstrap,
  csrRenewalRoleBinding,
} from '../../../../../controllers/k8s/internal/manifests/csr.js';

const rbac = 'rbac.authorization.k8s.io';
const grp = (name: string) => ({ kind: 'Group', name, apiGroup: rbac });

describe('the CSR bindings', () => {
  it('let bootstrapping nodes file CSRs, approve their client CSRs, and let nodes renew', () => {
    expect(csrNodeBootstrap()).toEqual({
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'system-bootstrap-node-bootstrapper' },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'system:node-bootstrapper' },
      subjects: [grp('system:bootstrappers:nodes'), grp('system:nodes')],
    });
    expect(csrApproverRoleBinding()).toMatchObject({
      metadata: { name: 'system-bootstrap-approve-node-client-csr' },
      roleRef: { name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient' },
      subjects: [grp('system:bootstrappers:nodes')],
    });
    expect(csrRenewalRoleBinding()).toMatchObject({
      metadata: { name: 'system-bootstrap-node-renewal' },
      roleRef: { name: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient' },
      subjects: [grp('system:nodes')],
    });
  });
});
