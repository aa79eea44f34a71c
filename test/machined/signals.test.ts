import { describe, expect, it, onTestFinished } from 'vitest';
import type { PowerAction } from '../../src/machined/power-action.js';
import { installSignalHandlers, SIGNAL_ACTIONS } from '../../src/machined/signals.js';

describe('stop signals', () => {
  it('map SIGTERM and SIGPWR to power-off and SIGINT (ctrl-alt-del) to reboot', () => {
    expect(SIGNAL_ACTIONS).toEqual({ SIGTERM: 'poweroff', SIGPWR: 'poweroff', SIGINT: 'reboot' });
  });

  it('deliver a real SIGPWR to the handler', async () => {
    const got = new Promise<[PowerAction, NodeJS.Signals]>((resolve) => {
      const uninstall = installSignalHandlers((a, s) => resolve([a, s]));
      onTestFinished(uninstall);
    });
    process.kill(process.pid, 'SIGPWR');
    expect(await got).toEqual(['poweroff', 'SIGPWR']);
  });
});
