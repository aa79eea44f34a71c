import { describe, expect, it } from 'vitest';
import { LINUX_REBOOT_CMD, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2 } from '../../src/sys/reboot.js';
import { requireRoot, runSnippet, sys } from './child.js';

describe('reboot(2)', () => {
  it('uses the kernel magic numbers', () => {
    expect(LINUX_REBOOT_MAGIC1).toBe(0xfee1dead);
    expect(LINUX_REBOOT_MAGIC2).toBe(0x28121969);
    expect(LINUX_REBOOT_CMD.POWER_OFF).toBe(0x4321fedc);
    expect(LINUX_REBOOT_CMD.RESTART).toBe(0x01234567);
  });

  // in a PID namespace reboot(2) ends only that namespace, so it is safe to call for real
  it('in a PID namespace, RESTART kills its init with SIGHUP and other commands fail with EINVAL', () => {
    requireRoot('reboot(2)');
    const r = runSnippet(
      `
      import { reboot } from ${JSON.stringify(sys('reboot.ts'))};
      try { reboot('CAD_OFF'); } catch (e) { console.log(e.message); }
      reboot('RESTART');
      console.log('still here');
      `,
      ['--pid', '--fork', '--kill-child=SIGKILL'],
    );
    expect(r.stdout).toBe('reboot("CAD_OFF"): EINVAL (invalid argument)\n');
    expect(r.signal).toBe('SIGHUP');
  });

  it('in a PID namespace, POWER_OFF kills its init with SIGINT', () => {
    requireRoot('reboot(2)');
    const r = runSnippet(`import { reboot } from ${JSON.stringify(sys('reboot.ts'))}; reboot('POWER_OFF');`, [
      '--pid',
      '--fork',
      '--kill-child=SIGKILL',
    ]);
    expect(r.signal).toBe('SIGINT');
  });
});
