// The uevent parser on datagrams laid out byte for byte as this kernel sent them (captured from the
// kernel group while a partitioned loop was attached and detached), and on what it must refuse.
import { describe, expect, it } from 'vitest';
import { UeventError } from '../../../../src/sys/block/uevent/errors.js';
import {
  isBlockUevent,
  isLibudevMessage,
  kernelName,
  parseUevent,
} from '../../../../src/sys/block/uevent/message.js';

const datagram = (...fields: string[]) => Buffer.from(`${fields.join('\0')}\0`, 'utf8');

const partitionAdd = datagram(
  'add@/devices/virtual/block/loop0/loop0p1',
  'ACTION=add',
  'DEVPATH=/devices/virtual/block/loop0/loop0p1',
  'SUBSYSTEM=block',
  'MAJOR=259',
  'MINOR=0',
  'DEVNAME=loop0p1',
  'DEVTYPE=partition',
  'DISKSEQ=177',
  'PARTN=1',
  'PARTNAME=keel-alpha', // what a kernel with a GPT parser adds for a labelled partition
  'SEQNUM=3435',
);

describe('parseUevent', () => {
  it('reads a partition add: action, devpath, subsystem, device numbers, seqnum and every variable', () => {
    expect(parseUevent(partitionAdd)).toEqual({
      action: 'add',
      devpath: '/devices/virtual/block/loop0/loop0p1',
      subsystem: 'block',
      devname: 'loop0p1',
      devtype: 'partition',
      major: 259,
      minor: 0,
      seqnum: 3435,
      env: {
        ACTION: 'add',
        DEVPATH: '/devices/virtual/block/loop0/loop0p1',
        SUBSYSTEM: 'block',
        MAJOR: '259',
        MINOR: '0',
        DEVNAME: 'loop0p1',
        DEVTYPE: 'partition',
        DISKSEQ: '177',
        PARTN: '1',
        PARTNAME: 'keel-alpha',
        SEQNUM: '3435',
      },
    });
  });

  it('reads a disk change with the media-change flag, and an event with no device node', () => {
    const change = parseUevent(
      datagram(
        'change@/devices/virtual/block/loop0',
        'ACTION=change',
        'DEVPATH=/devices/virtual/block/loop0',
        'SUBSYSTEM=block',
        'DISK_MEDIA_CHANGE=1',
        'MAJOR=7',
        'MINOR=0',
        'DEVNAME=loop0',
        'DEVTYPE=disk',
        'DISKSEQ=177',
        'SEQNUM=3438',
      ),
    );
    expect(change).toMatchObject({
      action: 'change',
      devtype: 'disk',
      major: 7,
      env: { DISK_MEDIA_CHANGE: '1' },
    });
    const bdi = parseUevent(
      datagram(
        'add@/devices/virtual/bdi/7:8',
        'ACTION=add',
        'DEVPATH=/devices/virtual/bdi/7:8',
        'SUBSYSTEM=bdi',
        'SEQNUM=12',
      ),
    );
    expect(bdi).toMatchObject({ subsystem: 'bdi', devname: undefined, major: undefined, minor: undefined });
    expect(bdi && isBlockUevent(bdi)).toBe(false);
    expect(isBlockUevent(parseUevent(partitionAdd)!)).toBe(true);
  });

  it('keeps = and non-ASCII bytes inside values', () => {
    const u = parseUevent(
      datagram(
        'change@/devices/virtual/block/loop3',
        'ACTION=change',
        'DEVPATH=/devices/virtual/block/loop3',
        'SUBSYSTEM=block',
        'SYNTH_UUID=0',
        'SYNTH_ARG_NOTE=a=b',
        'PARTNAME=données',
        'SEQNUM=9',
      ),
    );
    expect(u?.env.SYNTH_ARG_NOTE).toBe('a=b');
    expect(u?.env.PARTNAME).toBe('données');
  });

  it('passes over udevd’s monitor messages', () => {
    const header = Buffer.alloc(40); // udevd's binary header follows the magic
    const msg = Buffer.concat([Buffer.from('libudev\0', 'latin1'), header, partitionAdd]);
    expect(isLibudevMessage(msg)).toBe(true);
    expect(parseUevent(msg)).toBeUndefined();
    expect(isLibudevMessage(partitionAdd)).toBe(false);
  });

  it('refuses a datagram that is not the kernel’s format, saying what is wrong', () => {
    const bad = (d: Buffer, why: RegExp) => {
      expect(() => parseUevent(d)).toThrow(UeventError);
      expect(() => parseUevent(d)).toThrow(why);
    };
    const fields = [
      'add@/devices/virtual/block/loop0',
      'ACTION=add',
      'DEVPATH=/devices/virtual/block/loop0',
      'SUBSYSTEM=block',
      'SEQNUM=1',
    ];
    bad(datagram('no header here', ...fields.slice(1)), /no ACTION@DEVPATH header/);
    bad(
      datagram('explode@/devices/x', 'ACTION=explode', 'DEVPATH=/devices/x', 'SUBSYSTEM=block', 'SEQNUM=1'),
      /unknown action explode/,
    );
    bad(
      datagram(fields[0]!, 'ACTION=remove', ...fields.slice(2)),
      /ACTION=remove disagrees with the header's add/,
    );
    bad(
      datagram(fields[0]!, fields[1]!, 'DEVPATH=/devices/other', ...fields.slice(3)),
      /DEVPATH=\/devices\/other disagrees/,
    );
    bad(datagram(...fields.slice(0, 3), 'SEQNUM=1'), /no SUBSYSTEM/);
    bad(datagram(...fields.slice(0, 4)), /no SEQNUM/);
    bad(datagram(...fields.slice(0, 4), 'SEQNUM=lots'), /SEQNUM is not a number: lots/);
    bad(datagram(...fields, 'MAJOR=x'), /MAJOR is not a number/);
    bad(datagram(...fields, 'JUSTAWORD'), /not KEY=VALUE: JUSTAWORD/);
    try {
      parseUevent(datagram('??'));
    } catch (e) {
      expect(e).toMatchObject({ code: 'malformed', preview: '??\\0' });
      expect((e as Error).message).toBe('uevent "??\\\\0": no ACTION@DEVPATH header');
      return;
    }
    throw new Error('a datagram without a header was accepted');
  });
});

describe('kernelName', () => {
  it('is the last part of the devpath, the name sysfs lists the device by', () => {
    expect(kernelName({ devpath: '/devices/virtual/block/loop0/loop0p1' })).toBe('loop0p1');
    expect(kernelName({ devpath: '/devices/pci0000:00/0000:00:02.0/virtio1/block/vda' })).toBe('vda');
  });
});
