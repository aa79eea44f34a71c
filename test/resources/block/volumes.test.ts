// The volume types as upstream defines them: enums, YAML keys and omitempty, protobuf field numbers,
// and round trips through both codecs.
import { describe, expect, it } from 'vitest';
import {
  BLOCK_NAMESPACE,
  FilesystemType,
  FilesystemTypes,
  SYSTEM_VOLUME_LABEL,
  setSize,
  VolumeConfig,
  type VolumeConfigSpec,
  VolumeLifecycle,
  VolumeMountRequest,
  VolumeMountStatus,
  VolumePhase,
  VolumePhases,
  VolumeStatus,
  VolumeType,
  VolumeTypes,
  zeroVolumeConfig,
  zeroVolumeStatus,
} from '../../../resources/block/index.js';
import { encodeSpec } from '../../../src/cosi/resource/protobuf/index.js';
import { decodeResource, encodeResource } from '../../../src/cosi/resource/protobuf/resource.js';
import type { ResourceType } from '../../../src/cosi/resource/typed.js';
import { marshalResourceYAML, specYAML, unmarshalResourceYAML } from '../../../src/cosi/resource/yaml.js';

const columns = (t: ResourceType<unknown>) => t.definition.printColumns.map((c) => `${c.name}=${c.jsonPath}`);

const ephemeral = (): VolumeConfigSpec => {
  const s = zeroVolumeConfig();
  s.type = VolumeType.Partition;
  s.provisioning.wave = -1;
  s.provisioning.diskSelector.match = 'system_disk';
  s.provisioning.partitionSpec = {
    minSize: 2 * 2 ** 30,
    maxSize: 0,
    relativeMaxSize: 0,
    negativeMaxSize: false,
    grow: true,
    label: 'EPHEMERAL',
    typeUUID: '0fc63daf-8483-4772-8e79-3d69d8477de4',
  };
  s.provisioning.filesystemSpec = { type: FilesystemType.XFS, label: 'EPHEMERAL' };
  s.locator.match = "volume.partition_label == 'EPHEMERAL'";
  s.mount.targetPath = '/var';
  s.mount.fileMode = 0o755;
  return s;
};

describe('volume enums', () => {
  it('number the phases, types and filesystems as upstream', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((n) => VolumePhases.text(n))).toEqual([
      'waiting',
      'failed',
      'missing',
      'located',
      'provisioned',
      'prepared',
      'ready',
      'closed',
    ]);
    expect(VolumePhase.Ready).toBe(6);
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => VolumeTypes.text(n))).toEqual([
      'partition',
      'disk',
      'tmpfs',
      'directory',
      'symlink',
      'overlay',
      'external',
    ]);
    expect(FilesystemTypes.text(FilesystemType.XFS)).toBe('xfs');
    expect(FilesystemTypes.parse('ext4')).toBe(FilesystemType.EXT4);
  });
});

describe('volume definitions', () => {
  it('have upstream types, namespace and columns', () => {
    expect(VolumeConfig.type).toBe('VolumeConfigs.block.talos.dev');
    expect(VolumeConfig.definition.sensitivity).toBe('sensitive');
    expect(VolumeStatus.type).toBe('VolumeStatuses.block.talos.dev');
    expect(VolumeMountRequest.type).toBe('VolumeMountRequests.block.talos.dev');
    expect(VolumeMountStatus.type).toBe('VolumeMountStatuses.block.talos.dev');
    expect(VolumeLifecycle.type).toBe('VolumeLifecycles.block.talos.dev');
    expect(columns(VolumeStatus as ResourceType<unknown>)).toEqual([
      'Type={.type}',
      'Phase={.phase}',
      'Location={.location}',
      'Size={.prettySize}',
    ]);
    expect(columns(VolumeMountRequest as ResourceType<unknown>)).toEqual([
      'Volume ID={.volumeID}',
      'Requester={.requester}',
    ]);
    expect(columns(VolumeMountStatus as ResourceType<unknown>)).toEqual([
      'Volume ID={.volumeID}',
      'Requester={.requester}',
      'Target={.target}',
    ]);
    expect(columns(VolumeConfig as ResourceType<unknown>)).toEqual([]);
  });
});

describe('VolumeConfig', () => {
  it('renders upstream YAML keys, enums as text, zero structs left out', () => {
    const r = VolumeConfig.new(BLOCK_NAMESPACE, 'EPHEMERAL', ephemeral());
    r.metadata.labels.set(SYSTEM_VOLUME_LABEL, '');
    expect(specYAML(r)).toBe(
      [
        'type: partition',
        'provisioning:',
        '    wave: -1',
        '    diskSelector:',
        '        match: system_disk',
        '    partitionSpec:',
        '        minSize: 2147483648',
        '        grow: true',
        '        label: EPHEMERAL',
        '        typeUUID: 0fc63daf-8483-4772-8e79-3d69d8477de4',
        '    filesystemSpec:',
        '        type: xfs',
        '        label: EPHEMERAL',
        'locator:',
        "    match: volume.partition_label == 'EPHEMERAL'",
        'mount:',
        '    targetPath: /var',
        '    selinuxLabel: ""',
        '    projectQuotaSupport: false',
        '    fileMode: 493',
        '',
      ].join('\n'),
    );
    expect(unmarshalResourceYAML(marshalResourceYAML(r)).spec).toEqual(r.spec);
  });

  it('renders META with its locator only', () => {
    const s = zeroVolumeConfig();
    s.locator.match = "volume.partition_label == 'META'";
    expect(specYAML(VolumeConfig.new(BLOCK_NAMESPACE, 'META', s))).toBe(
      [
        'type: partition',
        'provisioning: {}',
        'locator:',
        "    match: volume.partition_label == 'META'",
        '',
      ].join('\n'),
    );
  });

  it('travels as protobuf with upstream field numbers (CEL only in YAML)', () => {
    const s = zeroVolumeConfig();
    s.type = VolumeType.Disk;
    s.provisioning.partitionSpec.minSize = 1;
    // type=2 (varint 1), provisioning=3 { partitionSpec=2 { minSize=1 (1) }, filesystemSpec=4 {} }, mount=5 {}
    expect(Buffer.from(encodeSpec(s, VolumeConfig.codec.proto!)).toString('hex')).toBe(
      '10011a06120208012200' + '2a00',
    );
    const full = VolumeConfig.new(BLOCK_NAMESPACE, 'EPHEMERAL', ephemeral());
    const back = decodeResource(encodeResource(full));
    expect(back.spec).toEqual({
      ...ephemeral(),
      provisioning: { ...ephemeral().provisioning, diskSelector: { match: '' } },
      locator: { match: '' },
    });
  });
});

describe('VolumeStatus', () => {
  it('renders upstream YAML and round-trips', () => {
    const s = zeroVolumeStatus();
    s.phase = VolumePhase.Ready;
    s.location = '/dev/vda4';
    s.mountLocation = '/dev/vda4';
    s.parentLocation = '/dev/vda';
    s.partitionIndex = 4;
    s.filesystem = FilesystemType.XFS;
    setSize(s, 104857600);
    const r = VolumeStatus.new(BLOCK_NAMESPACE, 'STATE', s);
    expect(specYAML(r)).toBe(
      [
        'phase: ready',
        'type: partition',
        'location: /dev/vda4',
        'mountLocation: /dev/vda4',
        'partitionIndex: 4',
        'parentLocation: /dev/vda',
        'size: 104857600',
        'prettySize: 105 MB',
        'filesystem: xfs',
        '',
      ].join('\n'),
    );
    expect(unmarshalResourceYAML(marshalResourceYAML(r)).spec).toEqual(s);
    expect(decodeResource(encodeResource(r)).spec).toEqual(s);
  });

  it('keeps the failure and the phase to retry from', () => {
    const s = zeroVolumeStatus();
    s.phase = VolumePhase.Failed;
    s.preFailPhase = VolumePhase.Located;
    s.errorMessage = 'boom';
    // phase=1 (1), errorMessage=3 "boom", preFailPhase=6 (3), mountSpec=15 {}
    expect(Buffer.from(encodeSpec(s, VolumeStatus.codec.proto!)).toString('hex')).toBe(
      '08011a04626f6f6d3003' + '7a00',
    );
    expect(specYAML(VolumeStatus.new(BLOCK_NAMESPACE, 'X', s))).toBe(
      'phase: failed\npreFailPhase: located\ntype: partition\nerrorMessage: boom\n',
    );
  });
});

describe('mount requests', () => {
  it('use upstream field numbers', () => {
    const req = { volumeID: 'STATE', readOnly: true, detached: false, requester: 'acquire' };
    expect(Buffer.from(encodeSpec(req, VolumeMountRequest.codec.proto!)).toString('hex')).toBe(
      '0a05535441544512076163717569726518' + '01',
    );
    const r = VolumeMountRequest.new(BLOCK_NAMESPACE, 'acquire-STATE', req);
    expect(decodeResource(encodeResource(r)).spec).toEqual(req);
    const st = {
      volumeID: 'STATE',
      requester: 'acquire',
      target: '/system/state',
      readOnly: true,
      detached: true,
    };
    expect(decodeResource(encodeResource(VolumeMountStatus.new(BLOCK_NAMESPACE, 'x', st))).spec).toEqual(st);
    expect(decodeResource(encodeResource(VolumeLifecycle.new(BLOCK_NAMESPACE, 'volumes'))).spec).toEqual({});
  });
});
