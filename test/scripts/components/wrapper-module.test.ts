// The wrapper module's go.mod (scripts/components/wrapper-module.ts): the first module's godebug settings
// carried over, and its replaces into its own tree turned into published versions, as Kubernetes needs.
import { describe, expect, it } from 'vitest';
import { godebugs, localReplaces, wrapperGoMod } from '../../../scripts/components/wrapper-module.js';

// the shape of k8s.io/kubernetes' go.mod, cut down
const kubernetes = `// This is a generated file. Do not edit directly.

module k8s.io/kubernetes

go 1.24.0

godebug default=go1.24

require (
	github.com/spf13/cobra v1.9.1
	k8s.io/api v0.0.0
	k8s.io/client-go v0.0.0
)

replace (
	k8s.io/api => ./staging/src/k8s.io/api
	k8s.io/client-go => ./staging/src/k8s.io/client-go // staging
	example.com/fork => example.com/fork v1.2.3
	example.com/up v1.0.0 => ../up
)

replace k8s.io/kubectl => ./staging/src/k8s.io/kubectl
`;

describe('wrapper module', () => {
  it('lists the replaces into the module tree, single or in a block, and only those', () => {
    expect(localReplaces(kubernetes)).toEqual([
      'k8s.io/api',
      'k8s.io/client-go',
      'example.com/up',
      'k8s.io/kubectl',
    ]);
  });

  it('lists godebug settings, single or in a block', () => {
    expect(godebugs(kubernetes)).toEqual(['default=go1.24']);
    expect(godebugs('module m\n\ngodebug (\n\tpanicnil=1\n\tx509sha1=1 // old CAs\n)\n')).toEqual([
      'panicnil=1',
      'x509sha1=1',
    ]);
  });

  it('writes the go.mod a wrapper of Kubernetes needs', () => {
    expect(
      wrapperGoMod({
        module: 'keel.build/components/k',
        go: '1.26.8',
        first: kubernetes,
        replaceLocal: 'v0.34.4',
      }),
    ).toBe(
      `module keel.build/components/k

go 1.26.8

godebug (
\tdefault=go1.24
)

replace (
\tk8s.io/api => k8s.io/api v0.34.4
\tk8s.io/client-go => k8s.io/client-go v0.34.4
\texample.com/up => example.com/up v0.34.4
\tk8s.io/kubectl => k8s.io/kubectl v0.34.4
)
`,
    );
  });

  it('writes the bare go.mod it always did for a module without either', () => {
    const etcd =
      'module go.etcd.io/etcd/server/v3\n\ngo 1.26.0\n\nreplace go.etcd.io/etcd/api/v3 => ../api\n';
    expect(wrapperGoMod({ module: 'keel.build/components/etcd', go: '1.26.8', first: etcd })).toBe(
      'module keel.build/components/etcd\n\ngo 1.26.8\n',
    );
  });
});
