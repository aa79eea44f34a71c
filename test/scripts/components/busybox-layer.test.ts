import { describe, expect, it } from 'vitest';
import { busyboxLayer } from '../../../scripts/components/busybox-layer.js';

describe('busyboxLayer', () => {
  it('links every applet where busybox lists it to /bin/busybox, once, leaving out /linuxrc', () => {
    const files = busyboxLayer(
      Buffer.from('bb'),
      ['bin/busybox', 'bin/sh', 'bin/sh', 'usr/bin/awk', 'sbin/ip', 'usr/sbin/chroot', 'linuxrc', ''],
      Buffer.from('GPL'),
    );
    const links = files.filter((f) => f.type === 'symlink');
    expect(links.map((f) => [f.path, f.type === 'symlink' && f.target])).toEqual([
      ['bin/sh', '/bin/busybox'],
      ['usr/bin/awk', '/bin/busybox'],
      ['sbin/ip', '/bin/busybox'],
      ['usr/sbin/chroot', '/bin/busybox'],
    ]);
    expect(files.find((f) => f.path === 'bin/busybox')).toMatchObject({ type: 'file', mode: 0o755 });
    expect(files.find((f) => f.path === 'tmp')).toMatchObject({ type: 'directory', mode: 0o1777 });
    const passwd = files.find((f) => f.path === 'etc/passwd');
    expect(passwd?.type === 'file' && passwd.content.toString()).toMatch(/^root:x:0:0:/);
  });
});
