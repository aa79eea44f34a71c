import { describe, expect, it } from 'vitest';
import { diskSizes, memorySizes, minimumMemory } from '../../../../src/api/cluster/checks/sizes.js';

const MiB = 2 ** 20;

describe('memorySizes (all nodes memory sizes)', () => {
  it('wants upstream’s minimums: 1698 MiB for a control plane, 874 MiB for a worker', () => {
    expect(minimumMemory('controlplane') / MiB).toBe(1698);
    expect(minimumMemory('worker') / MiB).toBe(874);
    expect(
      memorySizes([
        { node: '10.5.0.2', role: 'controlplane', memTotalKiB: 1_998_000 },
        { node: '10.5.0.4', role: 'worker', memTotalKiB: 900 * 1024 },
      ]),
    ).toBeUndefined();
  });

  it('names each node below its minimum, sizes in whole MiB', () => {
    expect(
      memorySizes([
        { node: '10.5.0.2', role: 'controlplane', memTotalKiB: 1_000_000 },
        { node: '10.5.0.4', role: 'worker', memTotalKiB: 512 * 1024 },
      ]),
    ).toBe(
      '2 errors occurred:\n' +
        '\t* node "10.5.0.2" does not meet memory requirements: expected at least 1698 MiB, actual 976 MiB\n' +
        '\t* node "10.5.0.4" does not meet memory requirements: expected at least 874 MiB, actual 512 MiB\n\n',
    );
  });
});

describe('diskSizes (all nodes disk sizes)', () => {
  it('wants an EPHEMERAL of at least 3.8 GiB (upstream’s 6 GiB disk less its system partitions)', () => {
    expect(
      diskSizes([{ node: '10.5.0.2', kind: 'read', volume: { location: '/dev/vda6', size: 5.4 * 2 ** 30 } }]),
    ).toBeUndefined();
    expect(
      diskSizes([
        { node: '10.5.0.3', kind: 'failed', error: 'rpc error: code = NotFound desc = resource not found' },
        { node: '10.5.0.2', kind: 'read', volume: { location: '/dev/vda6', size: 2 * 2 ** 30 } },
      ]),
    ).toBe(
      '2 errors occurred:\n' +
        '\t* ephemeral partition "/dev/vda6" for node "10.5.0.2" is too small, expected at least 3.8 GiB, actual 2.0 GiB\n' +
        '\t* error getting volume status for node "10.5.0.3": rpc error: code = NotFound desc = resource not found\n\n',
    );
  });
});
