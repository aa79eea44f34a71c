import { describe, expect, it } from 'vitest';
import { containerdConfig, containerdServiceSpec } from '../../../controllers/cri/containerd.js';

const paths = {
  root: '/var/lib/containerd',
  state: '/run/containerd',
  config: '/run/containerd',
  cniConf: '/etc/cni/net.d',
};

describe('containerd service spec', () => {
  it('keeps state on /var, the socket under /run, and takes the CNI plugins from the layer', () => {
    const toml = containerdConfig('/run/keel/components', paths);
    expect(toml).toBe(
      [
        'version = 3',
        'root = "/var/lib/containerd"',
        'state = "/run/containerd"',
        '',
        '[grpc]',
        '  address = "/run/containerd/containerd.sock"',
        '',
        "[plugins.'io.containerd.cri.v1.runtime'.cni]",
        '  bin_dirs = ["/run/keel/components/opt/cni/bin"]',
        '  conf_dir = "/etc/cni/net.d"',
        '',
      ].join('\n'),
    );
  });

  it('restricts the CRI’s oom_score_adj on a container node only, which cannot lower its own', () => {
    const toml = containerdConfig('/run/keel/components', { ...paths, containerMode: true });
    expect(toml).toContain(
      [
        '  address = "/run/containerd/containerd.sock"',
        '',
        "[plugins.'io.containerd.cri.v1.runtime']",
        '  restrict_oom_score_adj = true',
        '',
        "[plugins.'io.containerd.cri.v1.runtime'.cni]",
      ].join('\n'),
    );
    expect(containerdConfig('/run/keel/components', paths)).not.toContain('oom');
  });

  it('runs the layer’s containerd with its shim and runc on PATH, healthy once its socket accepts', () => {
    const s = containerdServiceSpec('/run/keel/components', paths);
    expect(s.args).toEqual([
      '/run/keel/components/usr/bin/containerd',
      '--config',
      '/run/containerd/config.toml',
    ]);
    expect(s.env.PATH?.startsWith('/run/keel/components/usr/bin:')).toBe(true);
    expect(s.health).toEqual({ kind: 'unix', path: '/run/containerd/containerd.sock' });
    expect(s.files).toEqual([
      {
        path: '/run/containerd/config.toml',
        mode: 0o644,
        content: containerdConfig('/run/keel/components', paths),
      },
    ]);
  });
});
