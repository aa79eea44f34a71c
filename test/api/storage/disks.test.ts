import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { callUnary } from '../fixtures.js';
import { type Msg, only, useServer } from '../machine/harness.js';

const h = useServer();

describe('StorageService.Disks over mTLS', () => {
  it('lists the block devices of /sys/block (RAM disks aside) with their sizes', async () => {
    const m = only(await callUnary(h.client('storage.StorageService'), 'Disks', {}));
    const disks = m.disks as Msg[];
    const want = readdirSync('/sys/block')
      .filter((n) => readFileSync(`/sys/block/${n}/dev`, 'utf8').split(':')[0] !== '1')
      .sort();
    expect(disks.map((d) => d.device_name)).toEqual(want.map((n) => `/dev/${n}`));
    for (const d of disks) {
      const name = (d.device_name as string).slice(5);
      expect(d.size).toBe(String(BigInt(readFileSync(`/sys/block/${name}/size`, 'utf8').trim()) * 512n));
      expect(d.readonly ?? false).toBe(readFileSync(`/sys/block/${name}/ro`, 'utf8').trim() === '1');
      expect(['UNKNOWN', 'SSD', 'HDD', 'NVME', 'SD', 'CD']).toContain(d.type ?? 'UNKNOWN');
    }
  });
});
