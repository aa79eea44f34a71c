import { afterEach, describe, expect, it } from 'vitest';
import { readLines } from '../../../src/machined/logging/lines.js';
import { processRunner } from '../../../src/machined/services/process-runner.js';
import type { Supervisor } from '../../../src/machined/services/supervisor.js';
import { capabilityNumber, parseStatusCaps } from '../../../src/sys/capabilities.js';
import { newSupervisor, tracked, waitService } from './helpers.js';

const kids = tracked();
const supervisors: Supervisor[] = [];
afterEach(async () => {
  try {
    await Promise.all(supervisors.splice(0).map((s) => s.stopAll()));
  } finally {
    kids.killAll();
  }
});

describe('dropping capabilities of a supervised service', () => {
  it('runs a service with dropCapabilities, which sees CAP_SYS_ADMIN gone', async () => {
    expect(process.getuid?.(), 'this test needs root (CAP_SETPCAP) to drop capabilities').toBe(0);
    const { supervisor, events, logs } = newSupervisor();
    supervisors.push(supervisor);
    supervisor.load({
      id: 'capless',
      restart: 'Once',
      runner: () =>
        processRunner({
          args: ['/bin/cat', '/proc/self/status'],
          dropCapabilities: ['CAP_SYS_ADMIN'],
          spawn: kids.spawn,
        }),
    });
    supervisor.start('capless');
    const evs = await waitService(events, 'capless', (e) => e.some((x) => x.action === 'FINISHED'));
    expect(evs.map((e) => e.message).join('\n')).not.toMatch(/Error running/);
    expect(supervisor.info('capless').state).toBe('Finished');

    // the whole status text is in the ring once the service finished; read it as lines
    const lines: string[] = [];
    const ac = new AbortController();
    for await (const l of readLines(logs.serviceLog('capless'), { signal: ac.signal, follow: false }))
      lines.push(l);
    const caps = parseStatusCaps(lines.join('\n'));
    const admin = 1n << BigInt(capabilityNumber('CAP_SYS_ADMIN')!);
    const chown = 1n << BigInt(capabilityNumber('CAP_CHOWN')!);
    expect(caps.bounding & admin).toBe(0n);
    expect(caps.effective & admin).toBe(0n);
    expect(caps.bounding & chown).toBe(chown);
    expect(caps.effective & chown).toBe(chown);
  });

  it('drops capabilities and then runs as the service uid/gid', async () => {
    expect(process.getuid?.(), 'this test needs root (CAP_SETPCAP, CAP_SETUID) to drop and switch').toBe(0);
    const { supervisor, events, logs } = newSupervisor();
    supervisors.push(supervisor);
    supervisor.load({
      id: 'nobody',
      restart: 'Once',
      runner: () =>
        processRunner({
          args: ['/bin/cat', '/proc/self/status'],
          dropCapabilities: ['CAP_SYS_ADMIN'],
          uid: 65534,
          gid: 65534,
          spawn: kids.spawn,
        }),
    });
    supervisor.start('nobody');
    await waitService(events, 'nobody', (e) => e.some((x) => x.action === 'FINISHED'));
    expect(supervisor.info('nobody').state).toBe('Finished');
    const lines: string[] = [];
    for await (const l of readLines(logs.serviceLog('nobody'), {
      signal: new AbortController().signal,
      follow: false,
    }))
      lines.push(l);
    const status = lines.join('\n');
    expect(status).toMatch(/^Uid:\s+65534\s+65534\s+65534\s+65534$/m);
    expect(status).toMatch(/^Gid:\s+65534\s+65534\s+65534\s+65534$/m);
    expect(status).toMatch(/^Groups:\s*$/m);
    const caps = parseStatusCaps(status);
    const admin = 1n << BigInt(capabilityNumber('CAP_SYS_ADMIN')!);
    expect(caps.bounding & admin).toBe(0n);
    // a non-root process keeps no effective or permitted capabilities after setuid
    expect(caps.effective).toBe(0n);
    expect(caps.permitted).toBe(0n);
  });
});
