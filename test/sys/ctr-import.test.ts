import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ctrImportArgs, fileSha256, imageArchives, parseImported } from '../../src/sys/ctr-import.js';

const D = `sha256:${'ab'.repeat(32)}`;

describe('ctr images import', () => {
  it('imports locally into the namespace, with the labels, unpacked', () => {
    expect(
      ctrImportArgs({
        ctr: '/l/usr/bin/ctr',
        address: '/run/containerd/containerd.sock',
        namespace: 'k8s.io',
        archive: '/l/a.tar',
        labels: ['a=b'],
      }),
    ).toEqual([
      '--address',
      '/run/containerd/containerd.sock',
      '--namespace',
      'k8s.io',
      'images',
      'import',
      '--local',
      '--label',
      'a=b',
      '/l/a.tar',
    ]);
  });

  it('reads the images ctr unpacked, and nothing from other lines', () => {
    const out = `unpacking keel.dev/toolbox:1.0 (${D})...done\nunpacking docker.io/x/y:2 (${D})...done\nImporting elapsed: 0.1 s\n`;
    expect(parseImported(out)).toEqual([
      { name: 'keel.dev/toolbox:1.0', digest: D },
      { name: 'docker.io/x/y:2', digest: D },
    ]);
    expect(parseImported(`unpacking a:1 (${D})...`)).toEqual([]);
  });

  it('lists a directory’s archives by name, and none where there is no directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-archives-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    for (const f of ['b.tar', 'a.tar', 'notes.txt']) writeFileSync(join(dir, f), 'x');
    expect(await imageArchives(dir)).toEqual([join(dir, 'a.tar'), join(dir, 'b.tar')]);
    expect(await imageArchives(join(dir, 'none'))).toEqual([]);
    expect(await fileSha256(join(dir, 'a.tar'))).toBe(
      '2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881',
    );
  });
});
