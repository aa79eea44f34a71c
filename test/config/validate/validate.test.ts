import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decode } from '../../../src/config/decoder/index.js';
import { ConfigErrors } from '../../../src/config/errors.js';
import { assertValid, validate } from '../../../src/config/validate/index.js';

const worker = readFileSync(new URL('../fixtures/worker.yaml.txt', import.meta.url), 'utf8');
const cp = readFileSync(new URL('../fixtures/controlplane.yaml.txt', import.meta.url), 'utf8');
const messages = (xs: readonly Error[]) => xs.map((x) => x.message);

describe('validate', () => {
  it('accepts the generated configs in every mode', () => {
    for (const text of [worker, cp]) {
      for (const mode of ['metal', 'cloud', 'container'] as const) {
        expect(messages(validate(decode(text), { mode }).errors)).toEqual([]);
      }
    }
  });

  it('warns about a non-canonical machine type, and strict mode makes it an error', () => {
    const cfg = decode(worker.replace('    type: worker\n', '    type: join\n'));
    const loose = validate(cfg, { mode: 'metal' });
    expect(loose.errors).toEqual([]);
    expect(messages(loose.warnings)).toEqual([
      'v1alpha1 machine.type (line 5): use "worker" instead of "join" for machine type',
    ]);
    expect(loose.warnings[0]!.code).toBe('warning');
    const strict = validate(cfg, { mode: 'metal', strict: true });
    expect(strict.warnings).toEqual([]);
    expect(messages(strict.errors)).toEqual([
      'v1alpha1 machine.type (line 5): warning: use "worker" instead of "join" for machine type',
    ]);
  });

  it('requires install instructions only in metal mode', () => {
    const cfg = decode(worker.replace(/ {4}install:\n( {8}.*\n)+/, ''));
    expect(messages(validate(cfg, { mode: 'metal' }).errors)).toEqual([
      'v1alpha1 machine.install (line 4): install instructions are required in "metal" mode',
    ]);
    expect(validate(cfg, { mode: 'cloud' }).errors).toEqual([]);
    expect(validate(cfg, { mode: 'container' }).errors).toEqual([]);
  });

  it('warns that install is ignored in container mode', () => {
    expect(messages(validate(decode(worker), { mode: 'container' }).warnings)).toContain(
      'v1alpha1 machine.install (line 16): install section is ignored in "container" mode',
    );
  });

  it('treats the same document differently on controlplane and worker nodes', () => {
    const withVIP = (text: string) =>
      decode(
        text.replace(
          '    network: {}\n',
          '    network:\n        interfaces:\n            - interface: eth0\n              dhcp: true\n              vip:\n                  ip: 10.5.0.100\n',
        ),
      );
    expect(validate(withVIP(cp), { mode: 'metal' }).errors).toEqual([]);
    expect(messages(validate(withVIP(worker), { mode: 'metal' }).errors)).toEqual([
      'v1alpha1 machine.network.interfaces[0].vip (line 19): virtual (shared) IP is not allowed on non-controlplane nodes',
    ]);
  });

  it('requires machine and cluster sections', () => {
    expect(messages(validate(decode('version: v1alpha1\n'), { mode: 'cloud' }).errors)).toEqual([
      'v1alpha1 machine (line 1): machine instructions are required',
      'v1alpha1 cluster (line 1): cluster instructions are required',
    ]);
  });

  it('reports conflicts between a typed document and the v1alpha1 field it replaces', () => {
    const cfg = decode(worker.replace('    network: {}\n', '    network:\n        hostname: node-1\n'));
    expect(messages(validate(cfg, { mode: 'metal' }).errors)).toEqual([
      'HostnameConfig hostname (line 56): static hostname is already set in v1alpha1 config',
    ]);
  });

  it('assertValid throws every error at once and returns the warnings', () => {
    const bad = decode(
      worker.replace('    type: worker\n', '    type: master\n').replace('persist: true', 'persist: false'),
    );
    expect(() => assertValid(bad, { mode: 'metal' })).toThrow(ConfigErrors);
    try {
      assertValid(bad, { mode: 'metal' });
    } catch (e) {
      expect((e as Error).message).toBe(
        '2 errors occurred:\n\t* v1alpha1 persist (line 3): .persist should be enabled\n\t* v1alpha1 machine.type (line 5): unknown machine type "master"',
      );
    }
    expect(assertValid(decode(worker), { mode: 'metal' })).toEqual([]);
  });
});
