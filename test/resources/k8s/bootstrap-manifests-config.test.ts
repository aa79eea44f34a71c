// BootstrapManifestsConfigs.kubernetes.talos.dev: upstream's type, namespace and id, and its YAML keys in
// upstream's order, the server under upstream's key `string`.
import { describe, expect, it } from 'vitest';
import {
  BOOTSTRAP_MANIFESTS_CONFIG_ID,
  BootstrapManifestsConfig,
  bootstrapManifestsConfigZero,
  K8S_CONTROL_PLANE_NAMESPACE,
  K8S_TYPES,
} from '../../../resources/k8s/index.js';
import {
  decodeResource,
  encodeResource,
  toProtoResource,
} from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';

describe('BootstrapManifestsConfigs.kubernetes.talos.dev', () => {
  it('has upstream’s type, namespace and id, and is registered', () => {
    expect(BootstrapManifestsConfig.type).toBe('BootstrapManifestsConfigs.kubernetes.talos.dev');
    expect(BootstrapManifestsConfig.defaultNamespace).toBe(K8S_CONTROL_PLANE_NAMESPACE);
    expect(BOOTSTRAP_MANIFESTS_CONFIG_ID).toBe('manifests');
    expect(K8S_TYPES).toContain(BootstrapManifestsConfig);
    expect(defaultRegistry.lookup(BootstrapManifestsConfig.type)).toBe(BootstrapManifestsConfig);
  });

  it('writes every key in upstream’s order, whatever order the spec was built in', () => {
    const { server, ...rest } = { ...bootstrapManifestsConfigZero(), server: 'https://127.0.0.1:7445' };
    const spec = { ...rest, proxyArgs: ['--a=1'], server };
    const r = BootstrapManifestsConfig.new(K8S_CONTROL_PLANE_NAMESPACE, BOOTSTRAP_MANIFESTS_CONFIG_ID, spec);
    const yaml = toProtoResource(r).spec?.yaml_spec ?? '';
    expect(
      yaml
        .split('\n')
        .filter((l) => /^\w/.test(l))
        .map((l) => l.slice(0, l.indexOf(':'))),
    ).toEqual([
      'string',
      'clusterDomain',
      'podCIDRs',
      'proxyEnabled',
      'proxyImage',
      'proxyArgs',
      'coreDNSEnabled',
      'coreDNSImage',
      'dnsServiceIP',
      'dnsServiceIPv6',
      'flannelEnabled',
      'flannelImage',
      'flannelExtraArgs',
      'flannelKubeServiceHost',
      'flannelKubeServicePort',
      'flannelKubeNetworkPoliciesEnabled',
      'flannelKubeNetworkPoliciesImage',
      'podSecurityPolicyEnabled',
      'talosAPIServiceEnabled',
      'cniName',
    ]);
    expect(yaml).toMatch(/^string: https:\/\/127\.0\.0\.1:7445\nclusterDomain: ""\npodCIDRs: \[\]\n/);
    const back = decodeResource(encodeResource(r));
    expect(BootstrapManifestsConfig.is(back) && back.spec).toEqual(spec);
  });
});
