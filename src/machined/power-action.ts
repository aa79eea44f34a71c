// What the machine does when machined is done: the reboot(2) command each action ends in.
import type { RebootCmd } from '../sys/reboot.js';

export type PowerAction = 'poweroff' | 'reboot' | 'halt' | 'kexec';

export const REBOOT_CMD_OF: Readonly<Record<PowerAction, RebootCmd>> = {
  poweroff: 'POWER_OFF',
  reboot: 'RESTART',
  halt: 'HALT',
  kexec: 'KEXEC',
};
