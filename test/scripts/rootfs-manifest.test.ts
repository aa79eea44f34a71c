// The rootfs build's pure parts: manifest validation, os-release rendering, merged-/usr paths and
// symlink resolution. The real build is covered by rootfs.test.ts.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../scripts/rootfs/manifest.js';
import { renderOsRelease } from '../../scripts/rootfs/os-release.js';
import { mergedPath, PackageIndex } from '../../scripts/rootfs/select.js';
import { findLibrary, resolve } from '../../scripts/rootfs/tree.js';

const repo = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));

describe('parseManifest', () => {
  it('reads the real manifest', () => {
    const m = parseManifest(readFileSync(repo('images/rootfs.yaml'), 'utf8'));
    expect([...m.packages.keys()]).toEqual(
      expect.arrayContaining(['xfsprogs', 'cryptsetup-bin', 'dosfstools', 'udev']),
    );
    expect(m.libraries).toEqual(expect.arrayContaining(['libc6', 'libstdc++6', 'libgcc-s1']));
  });

  it.each([
    ['packages: {a1: [/x]}\nextra: 1\n', "unknown top-level key 'extra'"],
    ['libraries: [libc6]\n', 'packages: must be a non-empty mapping'],
    ['packages: {Bad_Name: [/x]}\n', 'packages.Bad_Name: not a Debian package name'],
    ['packages: {xfsprogs: /sbin/mkfs.xfs}\n', 'packages.xfsprogs: must be a non-empty list of paths'],
    ['packages: {xfsprogs: [sbin/mkfs.xfs]}\n', 'packages.xfsprogs[0]: must be an absolute path'],
    ['packages: {xfsprogs: [/sbin/../bin/sh]}\n', "packages.xfsprogs[0]: '.' and '..' are not allowed"],
    ['packages: {xfsprogs: [/sbin/]}\n', 'packages.xfsprogs[0]: name files, not directories'],
    ['packages: {xfsprogs: [/a, /a]}\n', "packages.xfsprogs[1]: '/a' is listed twice"],
    ['packages: {xfsprogs: [/a]}\nlibraries: [libc6, libc6]\n', "libraries[1]: 'libc6' is listed twice"],
    [
      'packages: {xfsprogs: [/a]}\nlibraries: [xfsprogs]\n',
      "libraries[0]: 'xfsprogs' is already under packages",
    ],
    ['packages: {xfsprogs: [/a]}\nlibraries: libc6\n', 'libraries: must be a list of package names'],
    ['packages: {a1: [/x]}\npackages: {b1: [/y]}\n', 'Map keys must be unique'],
  ])('rejects %j', (text, message) => {
    expect(() => parseManifest(text, 'm.yaml')).toThrow(message);
  });
});

describe('renderOsRelease', () => {
  it('fills the version everywhere', () => {
    const out = renderOsRelease(readFileSync(repo('images/os-release.in'), 'utf8'), '0.2.0');
    expect(out).toContain('ID=keel\n');
    expect(out).toContain('VERSION_ID=0.2.0\n');
    expect(out).toContain('PRETTY_NAME="Keel 0.2.0"\n');
    expect(out).not.toContain('@');
  });

  it('rejects a version os-release cannot carry and unknown placeholders', () => {
    expect(() => renderOsRelease('VERSION_ID=@VERSION@', 'V1.0 beta')).toThrow('not a valid VERSION_ID');
    expect(() => renderOsRelease('X=@BUILD_ID@', '1')).toThrow('unknown placeholder @BUILD_ID@');
  });
});

describe('merged /usr', () => {
  it('maps /bin /sbin /lib /lib64 into /usr', () => {
    expect(mergedPath('/sbin/mkfs.xfs')).toBe('/usr/sbin/mkfs.xfs');
    expect(mergedPath('/lib/x86_64-linux-gnu/libc.so.6')).toBe('/usr/lib/x86_64-linux-gnu/libc.so.6');
    expect(mergedPath('/usr/sbin/xfs_db')).toBe('/usr/sbin/xfs_db');
    expect(mergedPath('/etc/udev/udev.conf')).toBe('/etc/udev/udev.conf');
  });

  it('resolves absolute and relative symlinks through the top-level links', () => {
    const idx = new PackageIndex();
    const file = { kind: 'file' as const, host: '/dev/null', mode: 0o755 };
    idx.add('libc6', '/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2', file);
    idx.add('libc6', '/usr/lib64/ld-linux-x86-64.so.2', {
      kind: 'symlink',
      target: '/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2',
      mode: 0o777,
    });
    idx.add('libfoo1', '/usr/lib/x86_64-linux-gnu/libfoo.so.1.2', { ...file, mode: 0o644 });
    idx.add('libfoo1', '/usr/lib/x86_64-linux-gnu/libfoo.so.1', {
      kind: 'symlink',
      target: 'libfoo.so.1.2',
      mode: 0o777,
    });

    const interp = resolve(idx.look, '/lib64/ld-linux-x86-64.so.2');
    expect(interp?.path).toBe('/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2');
    expect(interp?.via).toEqual(['/lib64', '/usr/lib64/ld-linux-x86-64.so.2', '/lib']);

    const lib = findLibrary(idx.look, 'libfoo.so.1', [], '/usr/sbin');
    expect(lib?.path).toBe('/usr/lib/x86_64-linux-gnu/libfoo.so.1.2');
    expect(findLibrary(idx.look, 'libbar.so.1', ['$ORIGIN/../lib'], '/usr/sbin')).toBeUndefined();
    expect(idx.owns('libfoo1', '/usr/lib/x86_64-linux-gnu/libfoo.so.1')).toBe(true);
    expect(idx.owns('libc6', '/usr/lib/x86_64-linux-gnu/libfoo.so.1')).toBe(false);
  });

  it('stops at symlink loops', () => {
    const idx = new PackageIndex();
    idx.add('p', '/usr/bin/a', { kind: 'symlink', target: 'b', mode: 0o777 });
    idx.add('p', '/usr/bin/b', { kind: 'symlink', target: 'a', mode: 0o777 });
    expect(resolve(idx.look, '/bin/a')).toBeUndefined();
  });
});
