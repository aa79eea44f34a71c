// The block types as upstream defines them: type strings, namespace, columns, YAML keys and omitempty,
// protobuf field numbers, and go-humanize's pretty sizes.
import { describe, expect, it } from 'vitest';
import {
  BLOCK_NAMESPACE,
  BLOCK_TYPES,
  Device,
  DISCOVERED_VOLUMES_STATUS_ID,
  DiscoveredVolume,
  DiscoveredVolumesStatus,
  DiscoveryRefreshRequest,
  DiscoveryRefreshStatus,
  Disk,
  prettySize,
  REFRESH_ID,
  SYSTEM_DISK_ID,
  SystemDisk,
} from '../../../resources/block/index.js';
import { encodeSpec } from '../../../src/cosi/resource/protobuf/index.js';
import { decodeResource, encodeResource } from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';
import type { ResourceType } from '../../../src/cosi/resource/typed.js';
import { marshalResourceYAML, specYAML, unmarshalResourceYAML } from '../../../src/cosi/resource/yaml.js';

const columns = (t: ResourceType<unknown>) => t.definition.printColumns.map((c) => `${c.name}=${c.jsonPath}`);

describe('block resource definitions', () => {
  it('have upstream type strings, the runtime namespace and upstream columns', () => {
    expect(BLOCK_NAMESPACE).toBe('runtime');
    expect(BLOCK_TYPES.map((t) => t.type)).toEqual([
      'BlockDevices.block.talos.dev',
      'Disks.block.talos.dev',
      'DiscoveredVolumes.block.talos.dev',
      'DiscoveredVolumesStatuses.block.talos.dev',
      'DiscoveryRefreshRequests.block.talos.dev',
      'DiscoveryRefreshStatuses.block.talos.dev',
      'SystemDisks.block.talos.dev',
      'VolumeConfigs.block.talos.dev',
      'VolumeLifecycles.block.talos.dev',
      'VolumeMountRequests.block.talos.dev',
      'VolumeMountStatuses.block.talos.dev',
      'VolumeStatuses.block.talos.dev',
    ]);
    for (const t of BLOCK_TYPES) {
      expect(t.defaultNamespace).toBe('runtime');
      expect(defaultRegistry.lookup(t.type)).toBe(t);
    }
    expect(columns(Device as ResourceType<unknown>)).toEqual([
      'Type={.type}',
      'PartitionName={.partitionName}',
      'Generation={.generation}',
    ]);
    expect(columns(Disk as ResourceType<unknown>)).toEqual([
      'Size={.pretty_size}',
      'Read Only={.readonly}',
      'Transport={.transport}',
      'Rotational={.rotational}',
      'WWID={.wwid}',
      'Model={.model}',
      'Serial={.serial}',
    ]);
    expect(columns(DiscoveredVolume as ResourceType<unknown>)).toEqual([
      'Type={.type}',
      'Size={.pretty_size}',
      'Discovered={.name}',
      'Label={.label}',
      'PartitionLabel={.partition_label}',
    ]);
    expect(columns(SystemDisk as ResourceType<unknown>)).toEqual(['Disk={.diskID}']);
    expect(columns(DiscoveredVolumesStatus as ResourceType<unknown>)).toEqual(['Ready={.ready}']);
    // upstream declares no aliases of its own: talosctl's are the automatic ones
    expect(Disk.definition.aliases).toEqual(['disk']);
    expect(Device.definition.aliases).toEqual(['blockdevice', 'bd', 'bds']);
    expect(DiscoveredVolume.definition.aliases).toEqual(['discoveredvolume', 'dv', 'dvs']);
    expect([SYSTEM_DISK_ID, DISCOVERED_VOLUMES_STATUS_ID, REFRESH_ID]).toEqual([
      'system-disk',
      'discovered-volumes-status',
      'refresh',
    ]);
  });
});

describe('Disk', () => {
  const spec = {
    ...Disk.codec.empty(),
    devPath: '/dev/vda',
    size: 10737418240,
    prettySize: '11 GB',
    ioSize: 512,
    sectorSize: 512,
    busPath: '/pci0000:00/0000:00:04.0/virtio2',
    subSystem: '/sys/class/block',
    symlinks: ['/dev/disk/by-path/virtio-pci-0000:00:04.0'],
  };

  it('writes upstream YAML keys in upstream order, leaving out the empty optional ones', () => {
    const r = Disk.new(BLOCK_NAMESPACE, 'vda', spec);
    expect(specYAML(r)).toBe(
      [
        'dev_path: /dev/vda',
        'size: 10737418240',
        'pretty_size: 11 GB',
        'io_size: 512',
        'sector_size: 512',
        'readonly: false',
        'cdrom: false',
        'bus_path: /pci0000:00/0000:00:04.0/virtio2',
        'sub_system: /sys/class/block',
        'symlinks:',
        '    - /dev/disk/by-path/virtio-pci-0000:00:04.0',
        '',
      ].join('\n'),
    );
    expect(unmarshalResourceYAML(marshalResourceYAML(r)).spec).toEqual(spec);
  });

  it('numbers fields as block.proto and round-trips through protobuf', () => {
    const small = { ...Disk.codec.empty(), size: 1, readonly: true, devPath: 'x' };
    // size = 1 (field 1, varint), readonly = 4, dev_path = 14 (tag 0x72), pretty_size empty
    expect(Buffer.from(encodeSpec(small, Disk.codec.proto!)).toString('hex')).toBe('08012001720178');
    const back = decodeResource(encodeResource(Disk.new(BLOCK_NAMESPACE, 'vda', spec)));
    expect(Disk.is(back) && back.spec).toEqual(spec);
  });
});

describe('DiscoveredVolume', () => {
  it('writes snake_case keys as upstream and round-trips', () => {
    const spec = {
      ...DiscoveredVolume.codec.empty(),
      devPath: '/dev/loop0p1',
      type: 'partition',
      devicePath: '/sys/devices/virtual/block/loop0/loop0p1',
      parent: 'loop0',
      parentDevPath: '/dev/loop0',
      size: 1048576,
      prettySize: '1.0 MB',
      sectorSize: 512,
      ioSize: 512,
      name: 'talosmeta',
      probedSize: 524288,
      partitionUUID: '3c6e7d4e-6b1f-4f7a-9d0b-6d1c0b7e2a10',
      partitionType: '0fc63daf-8483-4772-8e79-3d69d8477de4',
      partitionLabel: 'META',
      partitionIndex: 1,
    };
    const r = DiscoveredVolume.new(BLOCK_NAMESPACE, 'loop0p1', spec);
    expect(
      specYAML(r)
        .split('\n')
        .map((l) => l.slice(0, l.indexOf(':'))),
    ).toEqual([
      'dev_path',
      'type',
      'device_path',
      'parent',
      'parent_dev_path',
      'size',
      'pretty_size',
      'sector_size',
      'io_size',
      'name',
      'probed_size',
      'partition_uuid',
      'partition_type',
      'partition_label',
      'partition_index',
      '',
    ]);
    expect(unmarshalResourceYAML(marshalResourceYAML(r)).spec).toEqual(spec);
    const back = decodeResource(encodeResource(r));
    expect(DiscoveredVolume.is(back) && back.spec).toEqual(spec);
    // partition_label is field 12, partition_index 13
    const hex = Buffer.from(
      encodeSpec(
        { ...DiscoveredVolume.codec.empty(), partitionLabel: 'A', partitionIndex: 2 },
        DiscoveredVolume.codec.proto!,
      ),
    ).toString('hex');
    expect(hex).toBe('6201416802');
  });
});

describe('Device, SystemDisk and the status types', () => {
  it('keep upstream camelCase keys and round-trip', () => {
    const dev = {
      ...Device.codec.empty(),
      type: 'partition',
      major: 259,
      minor: 1,
      partitionName: 'META',
      partitionNumber: 1,
      devicePath: '/sys/devices/virtual/block/loop0/loop0p1',
      generation: 2,
      parent: 'loop0',
    };
    const r = Device.new(BLOCK_NAMESPACE, 'loop0p1', dev);
    expect(specYAML(r)).toBe(
      'type: partition\nmajor: 259\nminor: 1\npartitionName: META\npartitionNumber: 1\n' +
        'devicePath: /sys/devices/virtual/block/loop0/loop0p1\ngeneration: 2\nparent: loop0\n',
    );
    expect(Device.is(decodeResource(encodeResource(r)))).toBe(true);
    const sd = SystemDisk.new(BLOCK_NAMESPACE, SYSTEM_DISK_ID, { diskID: 'sda', devPath: '/dev/sda' });
    expect(specYAML(sd)).toBe('diskID: sda\ndevPath: /dev/sda\n');
    expect(Buffer.from(encodeSpec(sd.spec, SystemDisk.codec.proto!)).toString('hex')).toBe(
      '0a0373646112082f6465762f736461',
    );
    const st = DiscoveredVolumesStatus.new(BLOCK_NAMESPACE, DISCOVERED_VOLUMES_STATUS_ID, { ready: true });
    expect(specYAML(st)).toBe('ready: true\n');
    const req = DiscoveryRefreshRequest.new(BLOCK_NAMESPACE, REFRESH_ID, { request: 3 });
    expect(specYAML(req)).toBe('request: 3\n');
    expect(DiscoveryRefreshStatus.codec.equal({ request: 1 }, { request: 1 })).toBe(true);
  });
});

describe('prettySize', () => {
  it('renders as go-humanize Bytes', () => {
    expect(prettySize(0)).toBe('0 B');
    expect(prettySize(9)).toBe('9 B');
    expect(prettySize(1000)).toBe('1.0 kB');
    expect(prettySize(1048576)).toBe('1.0 MB');
    expect(prettySize(536870912)).toBe('537 MB');
    expect(prettySize(10737418240)).toBe('11 GB');
    expect(prettySize(536500000)).toBe('536 MB'); // an exact half rounds to even, as Go's %.0f
    expect(prettySize(537500000)).toBe('538 MB');
  });
});
