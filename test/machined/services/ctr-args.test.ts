import { describe, expect, it } from 'vitest';
import { parseMount } from '../../../src/machined/services/container-kind.js';
import { ctrRunArgs, parseImageList } from '../../../src/machined/services/ctr-args.js';

const t = { ctr: '/l/usr/bin/ctr', address: '/run/containerd/containerd.sock', namespace: 'system' };

describe('ctr command lines', () => {
  it('runs attached and removed, with the service’s label, user, caps, cgroup, network and mounts', () => {
    expect(
      ctrRunArgs(t, {
        id: 'web-0a1b2c3d',
        owner: 'service-web',
        source: { type: 'image', ref: 'keel.dev/web:v1' },
        args: ['/bin/web', '--port', '80'],
        env: { A: 'b=c' },
        uid: 60,
        gid: 61,
        dropCapabilities: ['sys_admin', 'CAP_NET_RAW'],
        cgroupPath: '/system/web',
        hostNetwork: true,
        mounts: [{ source: '/var/lib/web', destination: '/data', readOnly: true }],
      }),
    ).toEqual([
      ...['--address', '/run/containerd/containerd.sock', '--namespace', 'system'],
      ...['run', '--rm', '--label', 'keel.dev/owner=service-web', '--env', 'A=b=c', '--user', '60:61'],
      ...[
        '--cap-drop',
        'CAP_SYS_ADMIN',
        '--cap-drop',
        'CAP_NET_RAW',
        '--cgroup',
        '/system/web',
        '--net-host',
      ],
      ...['--mount', 'type=bind,src=/var/lib/web,dst=/data,options=rbind:ro'],
      ...['keel.dev/web:v1', 'web-0a1b2c3d', '/bin/web', '--port', '80'],
    ]);
  });

  it('a rootfs runs read-only; privileged joins the host namespaces it names', () => {
    expect(
      ctrRunArgs(t, {
        id: 'x',
        owner: 'o',
        source: { type: 'rootfs', path: '/usr/lib/apid' },
        args: [],
        privileged: { joinNamespaces: { pid: '/proc/1/ns/pid' } },
      }).slice(4),
    ).toEqual([
      ...['run', '--rm', '--label', 'keel.dev/owner=o', '--privileged', '--with-ns', 'pid:/proc/1/ns/pid'],
      ...['--rootfs', '--read-only', '/usr/lib/apid', 'x'],
    ]);
  });

  it('refuses a mount path ctr would misread', () => {
    expect(() =>
      ctrRunArgs(t, {
        id: 'x',
        owner: 'o',
        source: { type: 'image', ref: 'i' },
        args: [],
        mounts: [{ source: '/a,b', destination: '/c', readOnly: false }],
      }),
    ).toThrow(/"\/a,b": ',' and '=' cannot be passed to ctr/);
  });

  it('reads the image list: name and digest of each', () => {
    const out = [
      'REF                      TYPE                                       DIGEST                                                                  SIZE    PLATFORMS   LABELS ',
      'keel.dev/test/busybox:v1 application/vnd.oci.image.manifest.v1+json sha256:7965167ff85bca4acc262c9cb1d3fcd9e3af0df29540df8c8412dabac278b65a 1.9 MiB linux/amd64 -      ',
      '',
    ].join('\n');
    expect(parseImageList(out)).toEqual([
      {
        name: 'keel.dev/test/busybox:v1',
        digest: 'sha256:7965167ff85bca4acc262c9cb1d3fcd9e3af0df29540df8c8412dabac278b65a',
      },
    ]);
  });

  it('reads a spec’s mounts as /src:/dst[:ro]', () => {
    expect(parseMount('/a:/b:ro')).toEqual({ source: '/a', destination: '/b', readOnly: true });
    expect(parseMount('/a:/b')).toEqual({ source: '/a', destination: '/b', readOnly: false });
    expect(() => parseMount('a:/b')).toThrow(/want \/source:\/destination\[:ro\]/);
  });
});
