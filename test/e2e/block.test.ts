// Block discovery on a booted node: the ISO boots in QEMU with a blank virtio disk beside it, and the
// stock talosctl, in maintenance mode (as a user choosing an install disk does), lists the disks and the
// discovered volumes in upstream's columns: the blank disk with nothing on it, and the ISO's drive; the
// system volumes it cannot find are Missing, and META tags written before any disk is installed are kept.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { talosctl, talosctlPath } from '../integration/talosctl/talosctl.js';
import { freePort } from '../machined/node/harness.js';
import { artefact, boot, cleanup, retry, rowOf, works } from './node.js';

const BOOT_MS = 300_000;
const DISK_BYTES = 2 * 1024 ** 3;

const dir = mkdtempSync(join(tmpdir(), 'keel-e2e-block-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(cleanup);

describe('block discovery on the Keel ISO in QEMU', () => {
  it(
    'shows a blank virtio disk and the ISO drive to talosctl get disks / discoveredvolumes',
    async () => {
      const blank = join(dir, 'blank.raw');
      writeFileSync(blank, '');
      truncateSync(blank, DISK_BYTES);
      const port = await freePort();
      const vm = boot({ boot: { kind: 'iso', path: artefact('keel.iso') }, apiPort: port, dataDisk: blank });
      await vm.waitForLine(/apply-config --insecure/, { timeoutMs: BOOT_MS });

      const bin = talosctlPath();
      const tc = (...args: string[]) =>
        talosctl(bin, [...args, '--insecure', '-n', `127.0.0.1:${port}`], { cwd: dir, timeoutMs: 120_000 });

      const disks = await retry('get disks lists vda', async () => {
        const out = works(await tc('get', 'disks'));
        rowOf(out, 'Disk', 'vda');
        return out;
      });
      expect(disks).toMatch(
        /NAMESPACE\s+TYPE\s+ID\s+VERSION\s+SIZE\s+READ ONLY\s+TRANSPORT\s+ROTATIONAL\s+WWID\s+MODEL\s+SERIAL\n/,
      );
      expect(rowOf(disks, 'Disk', 'vda')).toMatch(
        /^\S*\s*runtime\s+Disk\s+vda\s+\d+\s+2\.1 GB\s+false\s+virtio\s/,
      );
      // the ISO's drive is a disk too, read-only
      expect(rowOf(disks, 'Disk', 'sr0')).toMatch(/\sDisk\s+sr0\s+\d+\s+\S+ MB\s+true\s/);

      const yaml = works(await tc('get', 'disks', 'vda', '-o', 'yaml'));
      expect(yaml).toMatch(/\n {4}dev_path: \/dev\/vda\n {4}size: 2147483648\n {4}pretty_size: 2\.1 GB\n/);
      expect(yaml).toMatch(/\n {4}transport: virtio\n/);
      expect(yaml).toMatch(/\n {4}sub_system: \/sys\/class\/block\n/);

      const volumes = await retry('get discoveredvolumes lists vda and sr0', async () => {
        const out = works(await tc('get', 'discoveredvolumes'));
        rowOf(out, 'DiscoveredVolume', 'vda');
        rowOf(out, 'DiscoveredVolume', 'sr0');
        return out;
      });
      expect(volumes).toMatch(
        /NAMESPACE\s+TYPE\s+ID\s+VERSION\s+TYPE\s+SIZE\s+DISCOVERED\s+LABEL\s+PARTITIONLABEL\n/,
      );
      // nothing on the blank disk; an iso9660 on the drive
      expect(rowOf(volumes, 'DiscoveredVolume', 'vda')).toMatch(
        /\sDiscoveredVolume\s+vda\s+\d+\s+disk\s+2\.1 GB\s*$/,
      );
      expect(rowOf(volumes, 'DiscoveredVolume', 'sr0')).toMatch(/\sdisk\s+\S+ MB\s+iso9660\s+KEEL\s*$/);

      const devices = works(await tc('get', 'blockdevices'));
      expect(rowOf(devices, 'BlockDevice', 'vda')).toMatch(/\sBlockDevice\s+vda\s+\d+\s+disk\s+\d+\s*$/);
      // booted from the ISO, the node has no META partition: no system disk
      const sd = await tc('get', 'systemdisk');
      expect(sd.output).not.toMatch(/SystemDisk\s+system-disk/);

      // no META or STATE anywhere: both Missing once discovery is complete (no config, nothing provisioned)
      const statuses = await retry('get volumestatus shows META and STATE missing', async () => {
        const out = works(await tc('get', 'volumestatus'));
        expect(rowOf(out, 'VolumeStatus', 'META')).toMatch(/\smissing\s*/);
        expect(rowOf(out, 'VolumeStatus', 'STATE')).toMatch(/\smissing\s*/);
        return out;
      });
      expect(statuses).toMatch(/NAMESPACE\s+TYPE\s+ID\s+VERSION\s+TYPE\s+PHASE\s+LOCATION\s+SIZE\n/);

      // META tags written in maintenance mode are kept in memory (no META partition yet), as upstream's
      works(await tc('meta', 'write', '0xc', 'kept-in-memory'));
      const meta = await retry('get meta shows 0x0c', async () => {
        const out = works(await tc('get', 'meta'));
        rowOf(out, 'MetaKey', '0x0c');
        return out;
      });
      expect(rowOf(meta, 'MetaKey', '0x0c')).toMatch(/\sMetaKey\s+0x0c\s+\d+\s+kept-in-memory\s*$/);
      works(await tc('meta', 'delete', '0xc'));
      expect(works(await tc('get', 'meta'))).not.toMatch(/\s0x0c\s/);
      const again = await tc('meta', 'delete', '0xc');
      expect(again.code).not.toBe(0);
      expect(again.output).toMatch(/meta key not found/);
    },
    BOOT_MS + 240_000,
  );
});
