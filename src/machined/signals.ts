// Signals that ask PID 1 to stop. The kernel drops every other signal sent to init that has no handler.
import type { PowerAction } from './power-action.js';

/**
 * What each signal asks for: SIGTERM and SIGPWR (UPS or container manager) power off; SIGINT is what the
 * kernel sends init for ctrl-alt-del once CAD is switched off, and means reboot.
 */
export const SIGNAL_ACTIONS: Readonly<Partial<Record<NodeJS.Signals, PowerAction>>> = {
  SIGTERM: 'poweroff',
  SIGPWR: 'poweroff',
  SIGINT: 'reboot',
};

/** installSignalHandlers routes the stop signals to `onRequest`; returns the uninstall function. */
export function installSignalHandlers(
  onRequest: (action: PowerAction, signal: NodeJS.Signals) => void,
): () => void {
  const handlers = Object.entries(SIGNAL_ACTIONS).map(([sig, action]) => {
    const h = () => onRequest(action, sig as NodeJS.Signals);
    process.on(sig, h);
    return [sig, h] as const;
  });
  return () => {
    for (const [sig, h] of handlers) process.off(sig, h);
  };
}
