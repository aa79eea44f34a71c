import { beforeAll, describe, expect, it } from 'vitest';
import { liveSafe, resolveMode } from '../../../src/api/machine-stateful/index.js';
import { type Config, generateConfigs, mintSecrets } from '../../../src/config/index.js';

let base: Config;
const edit = (cfg: Config, fn: (v1: Record<string, Record<string, unknown>>) => void): Config => {
  const docs = structuredClone(cfg.documents);
  const v1 = docs.find((d) => d.kind === 'v1alpha1')!;
  fn(v1.spec as unknown as Record<string, Record<string, unknown>>);
  return { documents: docs } as Config;
};

beforeAll(async () => {
  const secrets = await mintSecrets();
  base = generateConfigs({ clusterName: 'c', endpoint: 'https://10.5.0.2:6443', secrets }).controlplane;
});

describe('apply modes (v1.13 semantics)', () => {
  it('treats cluster and live-safe machine fields as live changes', () => {
    const next = edit(base, (v) => {
      v.cluster!.clusterName = 'other';
      v.machine!.certSANs = ['10.0.0.9'];
    });
    expect(liveSafe(base, next)).toBe(true);
    expect(resolveMode('AUTO', base, next, false)).toMatchObject({ effect: 'no-reboot', mode: 'NO_REBOOT' });
  });

  it('reboots on AUTO and refuses NO_REBOOT and TRY when a reboot-only field changes', () => {
    const next = edit(base, (v) => {
      v.machine!.token = 'abcdef.0123456789abcdef';
    });
    expect(liveSafe(base, next)).toBe(false);
    expect(resolveMode('AUTO', base, next, false)).toMatchObject({ effect: 'reboot', mode: 'REBOOT' });
    expect(() => resolveMode('NO_REBOOT', base, next, false)).toThrow(/need a reboot/);
    expect(() => resolveMode('TRY', base, next, false)).toThrow(/need a reboot/);
  });

  it('stages for the next boot and tries live changes', () => {
    expect(resolveMode('STAGED', base, base, false).effect).toBe('staged');
    expect(resolveMode('TRY', base, base, false).effect).toBe('try');
  });

  it('applies everything live in maintenance mode, where staged and try make no sense', () => {
    expect(resolveMode('REBOOT', undefined, base, true)).toMatchObject({
      effect: 'no-reboot',
      mode: 'NO_REBOOT',
    });
    expect(() => resolveMode('STAGED', undefined, base, true)).toThrow(/maintenance/);
  });
});
