// keelctl memory, mounts and processes against two real nodes: one-to-many tables, node names from the envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HandlerMap } from '../../../src/api/handlers.js';
import { unaryHandler } from '../../../src/api/handlers.js';
import { run, startNode, type TestNode, UNREACHABLE, type Workdir, workdir } from '../fixtures.js';

const handlers: HandlerMap = {
  '/machine.MachineService/Memory': unaryHandler(async () => ({
    messages: [
      {
        meminfo: {
          memtotal: '8000000',
          memfree: '4000000',
          memavailable: '5000000',
          buffers: '100000',
          cached: '1000000',
          shmem: '2048',
        },
      },
    ],
  })),
  '/machine.MachineService/Mounts': unaryHandler(async () => ({
    messages: [
      {
        stats: [
          { filesystem: '/dev/sda1', size: '10000000000', available: '2500000000', mounted_on: '/var' },
          { filesystem: 'none', size: '0', available: '0', mounted_on: '/sys' },
        ],
      },
    ],
  })),
  '/machine.MachineService/Processes': unaryHandler(async () => ({
    messages: [
      {
        processes: [
          {
            pid: 1,
            state: 'S',
            threads: 7,
            cpu_time: 1.5,
            virtual_memory: '82854982',
            resident_memory: '1500',
            command: 'machined',
            executable: '/sbin/init',
            args: 'init --debug',
          },
          {
            pid: 42,
            state: 'R',
            threads: 1,
            cpu_time: 0.25,
            virtual_memory: '9',
            resident_memory: '2000000',
            command: 'kthreadd',
            executable: '',
            args: '',
          },
        ],
      },
    ],
  })),
};

let a: TestNode;
let b: TestNode;
let wd: Workdir;
let nodes: string;
const env = () => ({ TALOSCONFIG: wd.talosconfig });

beforeAll(async () => {
  [a, b] = await Promise.all([startNode('node-a', handlers), startNode('node-b', handlers)]);
  wd = await workdir(a.server.address);
  nodes = `${a.server.address},${b.server.address}`;
});
afterAll(async () => {
  await Promise.all([a, b].map((n) => n?.server.close({ signal: AbortSignal.timeout(5_000) })));
  wd?.remove();
});

describe('keelctl memory, mounts, processes', () => {
  it('prints memory in MiB per node', async () => {
    const r = await run(['memory', '-n', nodes], env());
    const row = (n: string) => `${n}   7812    2832   3906   2        97        976     4882`;
    expect(r.stdout).toBe(
      [
        'NODE              TOTAL   USED   FREE   SHARED   BUFFERS   CACHE   AVAILABLE',
        row(a.server.address),
        row(b.server.address),
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(0);
  });

  it('prints memory verbosely, /proc/meminfo style', async () => {
    const r = await run(['memory', '-v'], env());
    const lines = r.stdout.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      `NODE: ${a.server.address}`,
      'MemTotal: 8000000 kB',
      'MemFree: 4000000 kB',
      'MemAvailable: 5000000 kB',
    ]);
    expect(lines).toContain('HugePagesTotal: 0');
  });

  it('prints mounts in GB, leaving out filesystems without a size', async () => {
    const r = await run(['mounts'], env());
    expect(r.stdout).toBe(
      [
        'NODE              FILESYSTEM   SIZE(GB)   USED(GB)   AVAILABLE(GB)   PERCENT USED   MOUNTED ON',
        `${a.server.address}   /dev/sda1    10.00      7.50       2.50            75.00%         /var`,
        '',
      ].join('\n'),
    );
  });

  it('prints processes columnized, largest resident memory first', async () => {
    const r = await run(['processes'], env());
    const n = a.server.address;
    expect(r.stdout).toBe(
      [
        `NODE${' '.repeat(n.length - 4)}  PID  STATE  THREADS  CPU-TIME  VIRTMEM  RESMEM  COMMAND`,
        `${n}  42   R      1        0.25      9 B      2.0 MB  kthreadd`,
        `${n}  1    S      7        1.50      83 MB    1.5 kB  /sbin/init --debug`,
        '',
      ].join('\n'),
    );
  });

  it('prints the reachable nodes and names the one that failed', async () => {
    const r = await run(['memory', '-n', `${a.server.address},${UNREACHABLE}`], env());
    expect(r.stdout.split('\n')).toHaveLength(3);
    expect(r.stderr).toMatch(new RegExp(`^error: error on node ${UNREACHABLE}: `));
    expect(r.code).toBe(1);
  });
});
