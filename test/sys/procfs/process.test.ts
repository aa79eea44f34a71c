import { describe, expect, it } from 'vitest';
import { parseCmdline, parseProcStat, processInfo } from '../../../src/sys/procfs/index.js';
import { fixture } from './fixture.js';

describe('parseProcStat', () => {
  it('reads a captured /proc/<pid>/stat', () => {
    const s = parseProcStat(fixture('self-stat.txt'));
    expect(s).toMatchObject({ pid: 12248, comm: 'cat', state: 'R', ppid: 12241, threads: 1 });
    expect(s.virtualMemory).toBe(3133440n);
    expect(s.residentPages).toBe(388n);
  });

  it('keeps a comm holding spaces and parentheses', () => {
    const text = '42 (a) b (c)) S 1 42 42 0 -1 0 0 0 0 0 250 150 0 0 20 0 7 0 100 1000 10 0';
    const s = parseProcStat(text);
    expect(s.comm).toBe('a) b (c)');
    expect(s.state).toBe('S');
    expect(s.ppid).toBe(1);
    expect(s.cpuTime).toBe(4);
    expect(s.threads).toBe(7);
  });

  it.each([['no parens'], ['1 (x) S'], ['1 (x) S one 1 1']])('rejects %j', (text) => {
    expect(() => parseProcStat(text, '/proc/1/stat')).toThrow(/\/proc\/1\/stat/);
  });
});

describe('parseCmdline', () => {
  it.each([
    [Buffer.from('node\0--import\0tsx\0'), 'node --import tsx'],
    [Buffer.from(''), ''],
    [Buffer.from('single'), 'single'],
  ])('%j → %j', (raw, want) => {
    expect(parseCmdline(raw)).toBe(want);
  });
});

describe('processInfo', () => {
  it('prefers comm, multiplies pages into bytes and cleans the label', () => {
    const p = processInfo({
      stat: fixture('self-stat.txt'),
      comm: 'cat\n',
      cmdline: Buffer.from('cat\0/proc/self/stat\0'),
      exe: '/usr/bin/cat',
      label: 'unconfined\n\0',
      pageSize: 4096,
    });
    expect(p).toMatchObject({
      pid: 12248,
      command: 'cat',
      args: 'cat /proc/self/stat',
      executable: '/usr/bin/cat',
      label: 'unconfined',
    });
    expect(p.residentMemory).toBe(388n * 4096n);
  });
});
