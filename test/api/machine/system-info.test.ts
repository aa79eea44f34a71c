import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { callUnary, withMetadata } from '../fixtures.js';
import { type Msg, only, useServer } from './harness.js';

const h = useServer();
const meminfo = (key: string) =>
  Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(readFileSync('/proc/meminfo', 'utf8'))![1]);

describe('MachineService system information over mTLS', () => {
  it('Memory: memtotal equals /proc/meminfo MemTotal, in kB', async () => {
    const m = only(await callUnary(h.client('machine.MachineService'), 'Memory', {}));
    const info = m.meminfo as Record<string, string>;
    expect(Number(info.memtotal)).toBe(meminfo('MemTotal'));
    expect(Number(info.hugepagesize)).toBe(meminfo('Hugepagesize'));
    expect(m.metadata).toBeUndefined();
  });

  it('Memory: the envelope names the node when asked through `nodes`', async () => {
    const reply = await callUnary(
      h.client('machine.MachineService'),
      'Memory',
      {},
      withMetadata({ nodes: h.server.address }),
    );
    expect((only(reply).metadata as Msg).hostname).toBe(h.server.address);
  });

  it("Processes: contains this test's own process with its real command", async () => {
    const m = only(await callUnary(h.client('machine.MachineService'), 'Processes', {}));
    const procs = m.processes as Msg[];
    const me = procs.find((p) => p.pid === process.pid);
    expect(me).toBeDefined();
    expect(me!.ppid).toBe(process.ppid);
    expect(me!.command).toBe(readFileSync('/proc/self/comm', 'utf8').trim());
    expect(me!.executable).toBe(process.execPath);
    expect(me!.args).toBe(
      readFileSync('/proc/self/cmdline', 'utf8').replace(/\0+$/, '').split('\0').join(' '),
    );
    expect(Number(me!.resident_memory)).toBeGreaterThan(0);
    expect(procs.some((p) => p.pid === 1)).toBe(true);
  });

  it('Mounts: / is listed with the sizes statfs gives', async () => {
    const m = only(await callUnary(h.client('machine.MachineService'), 'Mounts', {}));
    const root = (m.stats as Msg[]).find((s) => s.mounted_on === '/');
    expect(root).toBeDefined();
    expect(Number(root!.size)).toBeGreaterThan(0);
    expect(Number(root!.available)).toBeLessThanOrEqual(Number(root!.size));
    const targets = readFileSync('/proc/mounts', 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' ')[1]!.replace(/\\040/g, ' '));
    for (const s of m.stats as Msg[]) expect(targets).toContain(s.mounted_on);
  });

  it('Hostname: the kernel hostname', async () => {
    const m = only(await callUnary(h.client('machine.MachineService'), 'Hostname', {}));
    expect(m.hostname).toBe(readFileSync('/proc/sys/kernel/hostname', 'utf8').trim());
  });

  it('LoadAvg: three non-negative loads', async () => {
    const m = only(await callUnary(h.client('machine.MachineService'), 'LoadAvg', {}));
    for (const k of ['load1', 'load5', 'load15']) expect(m[k]).toBeGreaterThanOrEqual(0);
  });

  it('SystemStat: boot time and one CPU entry per cpuN line of /proc/stat', async () => {
    const stat = readFileSync('/proc/stat', 'utf8');
    const m = only(await callUnary(h.client('machine.MachineService'), 'SystemStat', {}));
    expect(m.boot_time).toBe(/^btime (\d+)/m.exec(stat)![1]);
    expect((m.cpu as Msg[]).length).toBe(stat.split('\n').filter((l) => /^cpu\d/.test(l)).length);
    expect((m.cpu_total as Msg).user).toBeGreaterThan(0);
    expect(Number(m.context_switches)).toBeGreaterThan(0);
    expect(m.soft_irq).toHaveProperty('timer');
  });

  it('CPUInfo: one entry per processor of /proc/cpuinfo', async () => {
    const text = readFileSync('/proc/cpuinfo', 'utf8');
    const m = only(await callUnary(h.client('machine.MachineService'), 'CPUInfo', {}));
    const cpus = m.cpu_info as Msg[];
    expect(cpus.length).toBe((text.match(/^processor/gm) ?? []).length);
    expect(cpus[0]!.model_name ?? cpus[0]!.vendor_id).toBeTruthy();
    expect((cpus[0]!.flags as string[]).length).toBeGreaterThan(0);
  });
});
