// The executable's entry: machined as PID 1 of a node. Everything testable lives in startMachined.
import { startMachined } from './main.js';

startMachined({ pid1: process.pid === 1 }).catch((e: unknown) => {
  // as PID 1 the emergency handlers are installed first, so this rejection still ends in reboot(2)
  process.stderr.write(
    `[machined] start failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
  );
  throw e;
});
