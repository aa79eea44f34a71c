import { describe, expect, it } from 'vitest';
import { parseMountInfo } from '../../src/sys/mountinfo.js';
import { requireRoot, runSnippet, scratchDir, sys } from './child.js';

describe('mountinfo', () => {
  it('parses optional fields and octal escapes', () => {
    const text = [
      '22 1 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:13 - proc proc rw',
      '36 35 98:0 /mnt1 /mnt\\040two rw,noatime master:1 shared:2 - ext3 /dev/root rw,errors=continue',
    ].join('\n');
    expect(parseMountInfo(text)).toEqual([
      {
        id: 22,
        parentId: 1,
        device: '0:21',
        root: '/',
        mountPoint: '/proc',
        options: 'rw,nosuid,nodev,noexec,relatime',
        fstype: 'proc',
        source: 'proc',
        superOptions: 'rw',
      },
      {
        id: 36,
        parentId: 35,
        device: '98:0',
        root: '/mnt1',
        mountPoint: '/mnt two',
        options: 'rw,noatime',
        fstype: 'ext3',
        source: '/dev/root',
        superOptions: 'rw,errors=continue',
      },
    ]);
  });
});

describe('mount and umount2 in a private mount namespace', () => {
  it('mounts a tmpfs with flags and data, and unmounts it', () => {
    requireRoot('mounting');
    const dir = scratchDir('keel-mnt-');
    const r = runSnippet(
      `
      import { writeFileSync } from 'node:fs';
      import { mount, umount, MS } from ${JSON.stringify(sys('mount.ts'))};
      import { readMountInfo } from ${JSON.stringify(sys('mountinfo.ts'))};
      const dir = ${JSON.stringify(dir)};
      mount('keeltmp', dir, 'tmpfs', { flags: MS.NOSUID | MS.NODEV, data: 'size=1M,mode=0700' });
      const m = readMountInfo().find((x) => x.mountPoint === dir);
      writeFileSync(dir + '/f', 'x');
      umount(dir);
      const after = readMountInfo().some((x) => x.mountPoint === dir);
      console.log(JSON.stringify({ m, after }));
      `,
      ['--mount'],
    );
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out.m).toMatchObject({ fstype: 'tmpfs', source: 'keeltmp' });
    expect(out.m.options).toContain('nosuid');
    expect(out.m.options).toContain('nodev');
    expect(out.m.superOptions).toContain('size=1024k');
    expect(out.m.superOptions).toContain('mode=700');
    expect(out.after).toBe(false);
  });

  it('mounts with the new mount API (fsopen → fsconfig → fsmount → move_mount)', () => {
    requireRoot('mounting');
    const dir = scratchDir('keel-mnt-');
    const r = runSnippet(
      `
      import { mountNew, umount, MOUNT_ATTR } from ${JSON.stringify(sys('mount.ts'))};
      import { readMountInfo } from ${JSON.stringify(sys('mountinfo.ts'))};
      const dir = ${JSON.stringify(dir)};
      mountNew('tmpfs', dir, { source: 'keelnew', size: '2M' }, MOUNT_ATTR.NOEXEC | MOUNT_ATTR.RDONLY);
      const m = readMountInfo().find((x) => x.mountPoint === dir);
      let err;
      try { mountNew('tmpfs', dir, { nosuchoption: '1' }); } catch (e) { err = { code: e.code, message: e.message }; }
      umount(dir);
      console.log(JSON.stringify({ m, err }));
      `,
      ['--mount'],
    );
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out.m).toMatchObject({ fstype: 'tmpfs', source: 'keelnew' });
    expect(out.m.options).toMatch(/^ro,/);
    expect(out.m.options).toContain('noexec');
    expect(out.err).toEqual({
      code: 'EINVAL',
      message: 'fsconfig("nosuchoption", "1"): EINVAL (invalid argument)',
    });
  });
});
