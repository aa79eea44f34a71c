// startMachined without PID 1 duties: the COSI state, the runtime resources and the orderly shutdown path.
import { describe, expect, it } from 'vitest';
import { BOOT_ID_ID, BootID, MACHINE_STATUS_ID, MachineStatus } from '../../resources/runtime/index.js';
import { readBootId } from '../../src/machined/boot-id.js';
import { startMachined } from '../../src/machined/main.js';

describe('startMachined (not PID 1)', () => {
  it('publishes the boot id and the machine stage, and shuts down through its hooks', async () => {
    const log: string[] = [];
    const m = await startMachined({ pid1: false, log: (l) => log.push(l) });
    expect(m.mounted).toEqual([]);
    const boot = (await m.state.get(BootID.pointer(BOOT_ID_ID))) as BootID;
    expect(boot.spec.bootID).toBe(readBootId());
    expect(boot.metadata.owner).toBe('machined');
    const stage = async () =>
      ((await m.state.get(MachineStatus.pointer(MACHINE_STATUS_ID))) as MachineStatus).spec;
    expect(await stage()).toEqual({ stage: 'booting', status: { ready: false, unmetConditions: [] } });

    await m.setStage('running', { ready: true });
    expect((await stage()).status.ready).toBe(true);

    const seen: string[] = [];
    m.addShutdownHook({
      name: 'services',
      run: async () => {
        seen.push(`services at ${(await stage()).stage}`);
      },
    });
    await m.shutdown('reboot');
    expect(await m.done).toBe('reboot');
    expect(seen).toEqual(['services at rebooting']);
    expect(log).toContain('shutdown hook stopControllerRuntime (2/2): done');
    // a second request joins the first instead of running the hooks again
    await m.shutdown('poweroff');
    expect(seen).toHaveLength(1);
  });

  it('without PID 1 duties, fatal errors are the caller’s', async () => {
    const m = await startMachined({ pid1: false, log: () => {} });
    expect(() => m.fatal(new Error('boom'))).toThrow('boom');
    await m.shutdown('poweroff');
  });
});
