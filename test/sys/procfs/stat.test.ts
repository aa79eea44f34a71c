import { describe, expect, it } from 'vitest';
import { parseStat, USER_HZ } from '../../../src/sys/procfs/index.js';
import { fixture } from './fixture.js';

const SAMPLE = `cpu  100 2 30 400 5 6 7 8 9 10
cpu0 50 1 15 200 2 3 4 4 5 5
cpu2 50 1 15 200 3 3 3 4 4 5
intr 1000 1 2 3
ctxt 123456
btime 1700000000
processes 4321
procs_running 3
procs_blocked 1
softirq 55 1 2 3 4 5 6 7 8 9 10
`;

describe('parseStat', () => {
  it('turns ticks into seconds and keeps counters', () => {
    const s = parseStat(SAMPLE);
    expect(s.cpuTotal).toEqual({
      user: 1,
      nice: 0.02,
      system: 0.3,
      idle: 4,
      iowait: 0.05,
      irq: 0.06,
      softIrq: 0.07,
      steal: 0.08,
      guest: 0.09,
      guestNice: 0.1,
    });
    expect(s.bootTime).toBe(1700000000);
    expect(s.irqTotal).toBe(1000);
    expect(s.irq).toEqual([1, 2, 3]);
    expect(s.contextSwitches).toBe(123456);
    expect(s.processCreated).toBe(4321);
    expect(s.processRunning).toBe(3);
    expect(s.processBlocked).toBe(1);
    expect(s.softIrqTotal).toBe(55);
    expect(s.softIrq).toEqual({
      hi: 1,
      timer: 2,
      netTx: 3,
      netRx: 4,
      block: 5,
      blockIoPoll: 6,
      tasklet: 7,
      sched: 8,
      hrtimer: 9,
      rcu: 10,
    });
  });

  it('indexes CPUs by number, an offline CPU being zeros', () => {
    const s = parseStat(SAMPLE);
    expect(s.cpu).toHaveLength(3);
    expect(s.cpu[1]!.user).toBe(0);
    expect(s.cpu[2]!.user).toBe(0.5);
  });

  it('reads a captured /proc/stat', () => {
    const text = fixture('stat.txt');
    const s = parseStat(text);
    const cpuLine = text.split('\n')[0]!.split(/\s+/);
    expect(s.cpuTotal.user).toBe(Number(cpuLine[1]) / USER_HZ);
    expect(s.cpu.length).toBe(text.split('\n').filter((l) => /^cpu\d/.test(l)).length);
    expect(s.bootTime).toBeGreaterThan(1_600_000_000);
    expect(s.irq.length).toBeGreaterThan(0);
  });

  it('names the line it cannot read', () => {
    expect(() => parseStat('cpu a b c\n', '/p/stat')).toThrow(/\/p\/stat: not a counter: "cpu a b c"/);
  });
});
