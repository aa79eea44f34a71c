// reboot(2): power-off, restart, halt, kexec and the ctrl-alt-del switch, with the kernel's magic numbers.
import { check } from './errno.js';
import { rawSyscall, SYS } from './libc.js';

export const LINUX_REBOOT_MAGIC1 = 0xfee1dead;
export const LINUX_REBOOT_MAGIC2 = 672274793; // 0x28121969

/** LINUX_REBOOT_CMD_* values. */
export const LINUX_REBOOT_CMD = {
  RESTART: 0x01234567,
  HALT: 0xcdef0123,
  CAD_ON: 0x89abcdef,
  CAD_OFF: 0x00000000,
  POWER_OFF: 0x4321fedc,
  RESTART2: 0xa1b2c3d4,
  SW_SUSPEND: 0xd000fce2,
  KEXEC: 0x45584543,
} as const;

export type RebootCmd = keyof typeof LINUX_REBOOT_CMD;

/**
 * reboot calls reboot(2). It returns only on failure or for CAD_ON/CAD_OFF. Inside a PID namespace other
 * than the initial one, RESTART ends the namespace's init with SIGHUP and POWER_OFF/HALT with SIGINT.
 */
export function reboot(cmd: RebootCmd, restartArg?: string): void {
  const no = LINUX_REBOOT_CMD[cmd];
  check(
    rawSyscall(
      SYS.reboot,
      'uint',
      LINUX_REBOOT_MAGIC1,
      'uint',
      LINUX_REBOOT_MAGIC2,
      'uint',
      no,
      'str',
      restartArg ?? null,
    ),
    'reboot',
    cmd,
  );
}
