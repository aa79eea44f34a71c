import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  isProcfsNotFound,
  readCPUInfo,
  readDisks,
  readHostname,
  readLoadAvg,
  readMeminfo,
  readMounts,
  readProcess,
  readProcesses,
  readStat,
} from '../../../src/sys/procfs/index.js';

const empty = mkdtempSync(join(tmpdir(), 'procfs-empty-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

describe('readers on the live kernel', () => {
  it('readMeminfo agrees with /proc/meminfo on MemTotal', async () => {
    const total = /^MemTotal:\s+(\d+)/m.exec(readFileSync('/proc/meminfo', 'utf8'))![1];
    expect((await readMeminfo()).get('MemTotal')).toBe(Number(total));
  });

  it('readProcess finds this process with its real command line', async () => {
    const p = await readProcess(process.pid, 4096);
    expect(p.pid).toBe(process.pid);
    expect(p.ppid).toBe(process.ppid);
    expect(p.args).toBe(readFileSync('/proc/self/cmdline', 'utf8').replace(/\0+$/, '').split('\0').join(' '));
    expect(p.executable).toBe(process.execPath);
    expect(p.threads).toBeGreaterThan(0);
    expect(p.residentMemory).toBeGreaterThan(0n);
  });

  it('readProcesses lists this process and pid 1', async () => {
    const pids = (await readProcesses()).map((p) => p.pid);
    expect(pids).toContain(process.pid);
    expect(pids).toContain(1);
  });

  it('readDisks lists /sys/block without RAM disks', async () => {
    const want = readdirSync('/sys/block')
      .filter((n) => readFileSync(`/sys/block/${n}/dev`, 'utf8').split(':')[0] !== '1')
      .sort();
    const disks = await readDisks();
    expect(disks.map((d) => d.deviceName)).toEqual(want.map((n) => `/dev/${n}`));
    for (const d of disks) {
      const sectors = BigInt(readFileSync(`/sys/block/${d.deviceName.slice(5)}/size`, 'utf8').trim());
      expect(d.size).toBe(sectors * 512n);
    }
  });

  it('the other readers parse what the kernel shows', async () => {
    expect((await readStat()).bootTime).toBeGreaterThan(0);
    expect((await readCPUInfo()).length).toBeGreaterThan(0);
    expect((await readLoadAvg()).load1).toBeGreaterThanOrEqual(0);
    expect((await readMounts()).some((m) => m.target === '/')).toBe(true);
    expect(await readHostname()).toBe(readFileSync('/proc/sys/kernel/hostname', 'utf8').trim());
  });
});

describe('readers on a root without the files', () => {
  it('report not-found naming the file', async () => {
    const err = await readMeminfo({ proc: empty }).catch((e: unknown) => e);
    expect(isProcfsNotFound(err)).toBe(true);
    expect((err as Error).message).toContain(join(empty, 'meminfo'));
  });

  it('readProcesses on an empty directory is an empty list', async () => {
    expect(await readProcesses({ proc: empty })).toEqual([]);
  });
});
