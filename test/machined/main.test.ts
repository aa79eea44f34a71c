// startMachined without PID 1 duties: the COSI state, the runtime resources and the orderly shutdown path.
import { describe, expect, it } from 'vitest';
import { BOOT_ID_ID, BootID, MACHINE_STATUS_ID, MachineStatus } from '../../resources/runtime/index.js';
import { readBootId } from '../../src/machined/boot-id.js';
import { startMachined } from '../../src/machined/main.js';

describe('startMachined (not PID 1)', () => {
  it('publishes the boot id (not the stage), and shuts down through its hooks', async () => {
    const log: string[] = [];
    const m = await startMachined({ pid1: false, log: (l) => log.push(l) });
    expect(m.mounted).toEqual([]);
    const boot = (await m.state.get(BootID.pointer(BOOT_ID_ID))) as BootID;
    expect(boot.spec.bootID).toBe(readBootId());
    expect(boot.metadata.owner).toBe('machined');
    // the stage is runtime.MachineStatusController's alone
    await expect(m.state.get(MachineStatus.pointer(MACHINE_STATUS_ID))).rejects.toThrow(
      /not found|doesn't exist/i,
    );

    const seen: string[] = [];
    m.addShutdownHook({
      name: 'services',
      run: async () => {
        seen.push(
          `services with boot id ${((await m.state.get(BootID.pointer(BOOT_ID_ID))) as BootID).spec.bootID}`,
        );
      },
    });
    await m.shutdown('reboot');
    expect(await m.done).toBe('reboot');
    expect(seen).toEqual([`services with boot id ${readBootId()}`]);
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
