// The start trace: its text, its making from perf's page-fault samples, its turning into a read-ahead
// plan, and the ELF layout (segments, build id) both rest on, read from the node this test runs on.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { readElfLayout, vaddrOf } from '../../scripts/rootfs/elf-layout.js';
import { tracedPlan } from '../../scripts/rootfs/read-ahead.js';
import {
  parseStartTrace,
  renderStartTrace,
  StartTraceError,
  traceFromPerfScript,
} from '../../scripts/rootfs/start-trace.js';

const K = 1024;

describe('the start trace text', () => {
  it('reads back what it writes, comments aside', () => {
    const trace = {
      buildId: 'ab12',
      icuData: '0123456789abcdef',
      entries: [{ window: 0x2600000 }, { file: '/usr/lib/keel/koffi.node' }, { window: 0x400000 }],
    };
    const text = renderStartTrace(trace, ['made by a test']);
    expect(text).toBe(
      '# made by a test\nbuild-id ab12\nicu-data 0123456789abcdef\nwindow 0x2600000\nfile /usr/lib/keel/koffi.node\nwindow 0x400000\n',
    );
    expect(parseStartTrace(text, 't.trace')).toEqual(trace);
  });

  it.each([
    ['window 0x10000\n', 't:1: entries before the build-id and icu-data lines'],
    ['build-id ab\nwindow 0x10000\n', 't:2: entries before the build-id and icu-data lines'],
    [
      'build-id ab\nicu-data none\nwindow 0x1000\n',
      't:3: window 0x1000 is not a hex address aligned to 65536 bytes',
    ],
    ['build-id ab\nicu-data none\nwindow 0x10000\nwindow 0x10000\n', 't:4: window 0x10000 appears twice'],
    ['build-id ab\nicu-data none\nfile koffi.node\n', 't:3: file koffi.node is not an absolute path'],
    [
      'build-id ab\nicu-data none\nblock 3\n',
      't:3: unknown entry kind "block" (build-id, icu-data, window, file)',
    ],
    ['build-id AB\n', 't:1: build-id AB is not lowercase hex'],
    ['build-id ab\nbuild-id cd\n', 't:2: a second build-id'],
    ['build-id ab\nicu-data 12ab\n', 't:2: icu-data 12ab is neither 16 lowercase hex digits nor none'],
    ['build-id ab\nicu-data none\nicu-data none\n', 't:3: a second icu-data'],
    ['build-id ab extra\n', 't:1: expected "<kind> <value>", got "build-id ab extra"'],
    ['# nothing\n', 't: no build-id line'],
    ['build-id ab\n', 't: no icu-data line (a trace from before it was kept: make start-trace)'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => parseStartTrace(text, 't')).toThrow(StartTraceError);
    expect(() => parseStartTrace(text, 't')).toThrow(message);
  });
});

describe('traceFromPerfScript', () => {
  // an executable whose second segment sits at 0x500000 in memory and at 0x1000 in the file
  const loads = [
    { vaddr: 0x400000, offset: 0, filesz: 0x1000 },
    { vaddr: 0x500000, offset: 0x1000, filesz: 0x40000 },
  ];
  const script = [
    ' 7  1.000000: PERF_RECORD_MMAP2 7/7: [0x400000(0x1000) @ 0 fe:00 1 2]: r--p /x/machined',
    ' 7  1.000001: PERF_RECORD_MMAP2 7/7: [0x500000(0x40000) @ 0x1000 fe:00 1 2]: r-xp /x/machined',
    ' 7  1.000002: minor-faults:     500010',
    ' 7  1.000003: minor-faults:     50ffff', // the same 64 KiB window
    ' 7  1.000004: major-faults:     400100',
    ' 9  1.000005: minor-faults:     530000', // another process, nothing mapped there
    ' 7  1.000006: PERF_RECORD_MMAP2 7/7: [0x7f0000000000(0x2000) @ 0 fe:00 3 4]: r-xp /x/koffi.node',
    ' 7  1.000007: minor-faults:     7f0000001000',
    ' 7  1.000008: minor-faults:     7f0000000000',
    ' 7  1.000009: PERF_RECORD_MMAP2 7/7: [0x7f1000000000(0x1000) @ 0 fe:00 5 6]: r--p /lib/libc.so.6',
    ' 7  1.000010: minor-faults:     7f1000000000', // a file nobody asked about
    ' 7  1.000011: minor-faults:     530000',
  ].join('\n');

  it('keeps first touches in order: windows by virtual address, named files once', () => {
    const trace = traceFromPerfScript(
      script,
      {
        exe: { path: '/x/machined', loads },
        others: new Map([['/x/koffi.node', '/usr/lib/keel/koffi.node']]),
      },
      { buildId: 'ab', icuData: 'none' },
    );
    expect(trace).toEqual({
      buildId: 'ab',
      icuData: 'none',
      entries: [
        { window: 0x500000 },
        { window: 0x400000 },
        { file: '/usr/lib/keel/koffi.node' },
        { window: 0x530000 },
      ],
    });
  });
});

describe('tracedPlan', () => {
  // .text-like segment: vaddr 0x500000 at file offset 0x1000 (not block-aligned), 1 MiB; file 2 MiB
  const loads = [{ vaddr: 0x500000, offset: 0x1000, filesz: 0x100000 }];

  it('widens windows to whole blocks, each once, in trace order, joining neighbours', () => {
    const plan = tracedPlan(
      {
        buildId: 'ab',
        icuData: 'none',
        entries: [
          { window: 0x510000 }, // file 0x11000..0x21000: blocks 0 and 1 (128 KiB)
          { window: 0x540000 }, // file 0x41000..0x51000: block 2 — follows block 1, joins the range
          { window: 0x500000 }, // block 0 again: nothing new
          { file: '/usr/lib/keel/koffi.node' },
          { window: 0x5f0000 }, // file 0xf1000..0x101000: blocks 7 and 8
          { window: 0x900000 }, // outside every segment
        ],
      },
      loads,
      0x108000,
      128 * K,
    );
    expect(plan).toEqual([
      { offset: 0, length: 3 * 128 * K },
      { path: '/usr/lib/keel/koffi.node' },
      // block 8 ends at the file's end
      { offset: 7 * 128 * K, length: 0x108000 - 7 * 128 * K },
    ]);
  });
});

describe("node's ELF layout", () => {
  it('matches readelf: the build id and the loadable segments', async () => {
    const layout = await readElfLayout(process.execPath);
    const notes = execFileSync('readelf', ['-n', process.execPath], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    expect(notes).toContain(`Build ID: ${layout.buildId}`);
    const segs = execFileSync('readelf', ['-lW', process.execPath], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter((f) => f[0] === 'LOAD' && Number.parseInt(f[4]!, 16) > 0)
      .map((f) => ({
        vaddr: Number.parseInt(f[2]!, 16),
        offset: Number.parseInt(f[1]!, 16),
        filesz: Number.parseInt(f[4]!, 16),
      }));
    expect(layout.loads).toEqual(segs);
    const text = layout.loads[2]!;
    expect(vaddrOf(layout.loads, text.offset + 5)).toBe(text.vaddr + 5);
    expect(
      vaddrOf(layout.loads, layout.loads.at(-1)!.offset + layout.loads.at(-1)!.filesz + 1),
    ).toBeUndefined();
  });
});
