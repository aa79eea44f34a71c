// The default PodSecurity admission configuration and audit policy that talosctl writes into apiServer.

export const podSecurityAdmission = (): Record<string, unknown> => ({
  apiVersion: 'pod-security.admission.config.k8s.io/v1alpha1',
  defaults: {
    audit: 'restricted',
    'audit-version': 'latest',
    enforce: 'baseline',
    'enforce-version': 'latest',
    warn: 'restricted',
    'warn-version': 'latest',
  },
  exemptions: { namespaces: ['kube-system'], runtimeClasses: [], usernames: [] },
  kind: 'PodSecurityConfiguration',
});

export const defaultAuditPolicy = (): Record<string, unknown> => ({
  apiVersion: 'audit.k8s.io/v1',
  kind: 'Policy',
  rules: [{ level: 'Metadata' }],
});
