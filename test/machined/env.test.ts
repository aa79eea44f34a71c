import { describe, expect, it } from 'vitest';
import { readBootId } from '../../src/machined/boot-id.js';
import { applyEnvironment, DEFAULT_PATH, environmentFromCmdline } from '../../src/machined/env.js';

describe('environment', () => {
  it('collects talos.environment= arguments from the kernel command line', () => {
    const cmdline =
      'console=ttyS0 talos.environment=http_proxy=http://proxy:3128 talos.environment=A=b=c quiet\n';
    expect(environmentFromCmdline(cmdline)).toEqual({ http_proxy: 'http://proxy:3128', A: 'b=c' });
    const env: NodeJS.ProcessEnv = { PATH: '/bin' };
    applyEnvironment(cmdline, env);
    expect(env).toEqual({ PATH: DEFAULT_PATH, http_proxy: 'http://proxy:3128', A: 'b=c' });
  });
});

describe('boot id', () => {
  it('reads the kernel boot id as a UUID', () => {
    expect(readBootId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});
