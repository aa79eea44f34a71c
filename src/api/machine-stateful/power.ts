// MachineService.Reboot and Shutdown: start the sequence under a fresh actor id and return it, so the
// caller can follow its events. Reset also checks what it is asked to wipe before it starts.
import { randomUUID } from 'node:crypto';
import { ApiError } from '../errors.js';
import { type Handler, notImplemented, unaryHandler } from '../handlers.js';
import type { PowerHost, ResetHost } from './deps.js';

export const rebootHandler = (power: PowerHost, newActorId: () => string = randomUUID): Handler =>
  unaryHandler(async (req) => {
    if (req.mode === 'POWERCYCLE')
      throw new ApiError(
        'unimplemented',
        'Reboot with mode POWERCYCLE is not implemented: there is no kexec/power-cycle path yet',
      );
    const actorId = newActorId();
    power.reboot(actorId);
    return { messages: [{ actor_id: actorId }] };
  });

export const shutdownHandler = (power: PowerHost, newActorId: () => string = randomUUID): Handler =>
  unaryHandler(async () => {
    const actorId = newActorId();
    power.shutdown(actorId);
    return { messages: [{ actor_id: actorId }] };
  });

export const resetHandler = (host?: ResetHost, newActorId: () => string = randomUUID): Handler =>
  unaryHandler(async (req) => {
    if (!host) {
      const e = notImplemented('/machine.MachineService/Reset');
      throw new ApiError('unimplemented', `${e.message}: reset wipes disks, and a container node has none`);
    }
    const actorId = newActorId();
    await host.reset(req, actorId);
    return { messages: [{ actor_id: actorId }] };
  });
