import { describe, expect, it } from 'vitest';
import { parseCPUInfo } from '../../../src/sys/procfs/index.js';
import { fixture } from './fixture.js';

describe('parseCPUInfo', () => {
  it('reads a captured x86 /proc/cpuinfo, one entry per processor', () => {
    const text = fixture('cpuinfo.txt');
    const cpus = parseCPUInfo(text);
    expect(cpus).toHaveLength((text.match(/^processor/gm) ?? []).length);
    expect(cpus.map((c) => c.processor)).toEqual(cpus.map((_, i) => i));
    const c = cpus[0]!;
    expect(c.vendorId).toMatch(/\S/);
    expect(c.modelName).toMatch(/\S/);
    expect(c.flags).toContain('fpu');
    expect(c.bogoMips).toBeGreaterThan(0);
    expect(c.cpuIdLevel).toBeGreaterThan(0);
    expect(c.addressSizes).toMatch(/bits physical/);
  });

  it('maps the arm64 spellings onto the same fields', () => {
    const cpus = parseCPUInfo(fixture('cpuinfo-arm64.txt'));
    expect(cpus).toHaveLength(2);
    expect(cpus[1]).toMatchObject({
      processor: 1,
      bogoMips: 48,
      vendorId: '0x41',
      cpuFamily: '8',
      model: '0xd08',
      stepping: '3',
    });
    expect(cpus[0]!.flags).toEqual([
      'fp',
      'asimd',
      'evtstrm',
      'aes',
      'pmull',
      'sha1',
      'sha2',
      'crc32',
      'cpuid',
    ]);
  });

  it.each([
    [
      'processor\t: 0\ncpu MHz\t\t: 2445.404\nsiblings\t: 4\ncpu cores\t: 2\n',
      { cpuMHz: 2445.404, siblings: 4, cpuCores: 2 },
    ],
    ['processor : 3\nbugs : spectre_v1 spectre_v2\n', { processor: 3, bugs: ['spectre_v1', 'spectre_v2'] }],
  ])('parses %j', (text, want) => {
    expect(parseCPUInfo(text)[0]).toMatchObject(want);
  });

  it('rejects a line without a colon, naming the file', () => {
    expect(() => parseCPUInfo('processor 0\n', '/p/cpuinfo')).toThrow(/\/p\/cpuinfo/);
  });
});
