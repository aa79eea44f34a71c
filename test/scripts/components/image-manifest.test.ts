// The images of images/components.yaml as scripts/components/image-manifest.ts reads them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseImages, tagOfDebVersion } from '../../../scripts/components/image-manifest.js';
import { parseComponents } from '../../../scripts/components/manifest.js';

const manifest = readFileSync(
  fileURLToPath(new URL('../../../images/components.yaml', import.meta.url)),
  'utf8',
);
const one = (entry: string) => `components: {}\nimages:\n  t:\n${entry}`;
const deb = '    busybox: { package: busybox-static, version: "1:1.0-1", sha256: ' + `${'a'.repeat(64)} }\n`;

describe('images of the components manifest', () => {
  it('reads the toolbox, named from its pinned busybox, beside the components', () => {
    const [toolbox, ...rest] = parseImages(manifest);
    expect(rest).toEqual([]);
    expect(toolbox).toMatchObject({
      name: 'toolbox',
      ref: 'keel.dev/toolbox:1.35.0-4-deb12u1-b1',
      busybox: { package: 'busybox-static', version: '1:1.35.0-4+deb12u1+b1' },
      config: { cmd: ['/bin/sh'], workingDir: '/' },
    });
    expect(parseComponents(manifest).length).toBeGreaterThan(0);
  });

  it('makes a tag of a Debian version', () => {
    expect(tagOfDebVersion('1:1.35.0-4+deb12u1+b1')).toBe('1.35.0-4-deb12u1-b1');
    expect(tagOfDebVersion('2.0~rc1-3')).toBe('2.0-rc1-3');
  });

  it.each([
    [
      'an unknown key',
      one(`    repository: keel.dev/t\n${deb}    entrypoint: [/x]\n`),
      "unknown key 'entrypoint'",
    ],
    ['a repository without a host', one(`    repository: t\n${deb}`), 'repository: must be'],
    [
      'a version YAML reads as a number',
      one('    repository: keel.dev/t\n    busybox: { package: bb, version: 1.0, sha256: x }\n'),
      'busybox.version',
    ],
    [
      'a deb without its sha256',
      one('    repository: keel.dev/t\n    busybox: { package: busybox, version: "1.0" }\n'),
      'busybox.sha256',
    ],
    ['a bad env', one(`    repository: keel.dev/t\n${deb}    env: [PATH]\n`), "'PATH' is not KEY=VALUE"],
  ])('refuses %s', (_, text, message) => {
    expect(() => parseImages(text, 'm.yaml')).toThrow(message);
  });

  it('lets the components be read beside the images, and nothing else at the top', () => {
    expect(() => parseComponents(`${one(`    repository: keel.dev/t\n${deb}`)}`)).toThrow(
      'name at least one',
    );
    expect(() => parseComponents('components: {}\nother: 1\n')).toThrow('top level');
  });
});
