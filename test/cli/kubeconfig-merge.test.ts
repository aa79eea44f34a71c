// mergeKubeconfig: go-kubeconfig's rules — identical entries merge silently, clashes are renamed `-1`
// (or overwritten when forced), names derived from a renamed cluster follow it, the new context is current.
import { describe, expect, it } from 'vitest';
import { type Kubeconfig, mergeKubeconfig } from '../../src/cli/kubeconfig-merge.js';

const kubeconfig = (cluster: string, server: string, crt = 'crt'): Kubeconfig => ({
  apiVersion: 'v1',
  kind: 'Config',
  clusters: [{ name: cluster, cluster: { server } }],
  users: [{ name: `admin@${cluster}`, user: { 'client-certificate-data': crt } }],
  contexts: [
    { name: `admin@${cluster}`, context: { cluster, namespace: 'default', user: `admin@${cluster}` } },
  ],
  'current-context': `admin@${cluster}`,
});

describe('mergeKubeconfig', () => {
  it('adds a new cluster beside the others and makes its context current, keeping other fields', () => {
    const into = {
      ...kubeconfig('old', 'https://old:6443'),
      'current-context': 'admin@old',
      preferences: {},
    };
    const { merged, renamed } = mergeKubeconfig(into, kubeconfig('demo', 'https://demo:6443'), {
      force: false,
    });
    expect(renamed).toEqual([]);
    expect(merged.clusters!.map((c) => c.name)).toEqual(['old', 'demo']);
    expect(merged.users!.map((c) => c.name)).toEqual(['admin@old', 'admin@demo']);
    expect(merged['current-context']).toBe('admin@demo');
    expect(merged.preferences).toEqual({});
  });

  it('renames a clashing cluster and the user named after it, and links the context to both', () => {
    const { merged, renamed } = mergeKubeconfig(
      kubeconfig('demo', 'https://a:6443'),
      kubeconfig('demo', 'https://b:6443', 'crt2'),
      { force: false },
    );
    expect(renamed).toEqual([
      'renamed cluster "demo" -> "demo-1"',
      'renamed auth info "admin@demo" -> "admin@demo-1"',
      'renamed context "admin@demo" -> "admin@demo-1"',
    ]);
    expect(merged.clusters!.map((c) => c.name)).toEqual(['demo', 'demo-1']);
    const ctx = merged.contexts!.find((c) => c.name === 'admin@demo-1')!;
    expect(ctx.context).toEqual({ cluster: 'demo-1', namespace: 'default', user: 'admin@demo-1' });
    expect(merged['current-context']).toBe('admin@demo-1');
  });

  it('overwrites clashes when forced', () => {
    const { merged, renamed } = mergeKubeconfig(
      kubeconfig('demo', 'https://a:6443'),
      kubeconfig('demo', 'https://b:6443', 'crt2'),
      { force: true },
    );
    expect(renamed).toEqual([]);
    expect(merged.clusters).toEqual([{ name: 'demo', cluster: { server: 'https://b:6443' } }]);
    expect(merged.users).toEqual([{ name: 'admin@demo', user: { 'client-certificate-data': 'crt2' } }]);
  });

  it('names the context as asked', () => {
    const { merged } = mergeKubeconfig({}, kubeconfig('demo', 'https://a:6443'), {
      force: false,
      contextName: 'mine',
    });
    expect(merged.contexts!.map((c) => c.name)).toEqual(['mine']);
    expect(merged['current-context']).toBe('mine');
  });
});
