// The QEMU command line of Keel's VMs (pure): the instruction-counting mode the boot benchmark uses to
// measure the guest's own work, and the NIC's backend (QEMU's user network, or a tap in a namespace).
import { describe, expect, it } from 'vitest';
import {
  CPU_MODEL,
  ICOUNT_NS_PER_INSTRUCTION,
  qemuArgs,
  qemuCommand,
  type VmOptions,
} from '../../scripts/lib/qemu.js';

const boot: VmOptions['boot'] = {
  kind: 'kernel',
  kernel: 'vmlinuz',
  initrd: 'initramfs.img',
  cmdline: 'quiet',
};
const files = { monitor: '/run/monitor.sock' };
const argOf = (args: readonly string[], flag: string) => args[args.indexOf(flag) + 1];

describe('qemuArgs', () => {
  it('runs multi-threaded TCG on two CPUs by default, without instruction counting', () => {
    const args = qemuArgs({ boot }, files);
    expect(argOf(args, '-accel')).toBe('tcg');
    expect(argOf(args, '-smp')).toBe('2');
    expect(args).not.toContain('-icount');
  });

  it('counts instructions on one CPU: single-threaded TCG, icount at the exported rate, idle skipped', () => {
    const args = qemuArgs({ boot, cpus: 1, countInstructions: true }, files);
    expect(argOf(args, '-accel')).toBe('tcg,thread=single');
    expect(argOf(args, '-smp')).toBe('1');
    const shift = Math.log2(ICOUNT_NS_PER_INSTRUCTION);
    expect(Number.isInteger(shift)).toBe(true);
    expect(argOf(args, '-icount')).toBe(`shift=${shift},sleep=off`);
    // the CPU model and the boot medium stay those of every other VM
    expect(argOf(args, '-cpu')).toBe(argOf(qemuArgs({ boot }, files), '-cpu'));
    expect(argOf(args, '-append')).toBe('quiet');
  });

  it('describes an Intel CPU without the features whose code TCG runs slowest', () => {
    const model = argOf(qemuArgs({ boot }, files), '-cpu') ?? '';
    expect(model).toBe(CPU_MODEL);
    const features = model.split(',');
    expect(features).toContain('vendor=GenuineIntel');
    // AVX and what builds on it, and the byte-at-a-time string instructions (rep movsb/stosb)
    for (const f of ['avx', 'avx2', 'fma', 'f16c', 'erms', 'fsrm']) expect(features).toContain(`-${f}`);
  });

  it('boots a disk on a throwaway overlay unless the disk is to persist (an installed node)', () => {
    const drive = (persistent?: boolean) =>
      argOf(qemuArgs({ boot: { kind: 'disk', path: 'disk.raw', persistent } }, files), '-drive');
    expect(drive()).toBe('file=disk.raw,format=raw,if=virtio,snapshot=on');
    expect(drive(true)).toBe('file=disk.raw,format=raw,if=virtio');
  });

  it('refuses to count instructions with more than one CPU, or with the default two', () => {
    expect(() => qemuArgs({ boot, cpus: 2, countInstructions: true }, files)).toThrow(/one CPU \(cpus: 1\)/);
    expect(() => qemuArgs({ boot, countInstructions: true }, files)).toThrow(/one CPU/);
  });

  it("puts the NIC on QEMU's user network by default, forwarding the API port when asked", () => {
    expect(argOf(qemuArgs({ boot }, files), '-netdev')).toBe('user,id=net0');
    const fwd = qemuArgs({ boot, apiPort: 50123, apiGuestAddress: '10.0.2.50' }, files);
    expect(argOf(fwd, '-netdev')).toBe('user,id=net0,hostfwd=tcp:127.0.0.1:50123-10.0.2.50:50000');
    expect(fwd).toContain('virtio-net-pci,netdev=net0');
    // more ports (the Kubernetes API server's) go to the same guest address
    const more = qemuArgs({ boot, apiPort: 50123, forwards: [{ host: 46443, guest: 6443 }] }, files);
    expect(argOf(more, '-netdev')).toBe(
      'user,id=net0,hostfwd=tcp:127.0.0.1:50123-:50000,hostfwd=tcp:127.0.0.1:46443-:6443',
    );
    expect(qemuCommand({ boot }, files)).toEqual({
      file: 'qemu-system-x86_64',
      args: qemuArgs({ boot }, files),
    });
  });

  it("attaches the NIC to a tap without QEMU's scripts, and starts QEMU in the tap's namespace", () => {
    const network = { kind: 'tap', netns: 'keel-t-1-tap0', ifname: 'tap0' } as const;
    const args = qemuArgs({ boot, network }, files);
    expect(argOf(args, '-netdev')).toBe('tap,id=net0,ifname=tap0,script=no,downscript=no');
    expect(args).toContain('virtio-net-pci,netdev=net0');
    expect(args.join(' ')).not.toMatch(/user,|hostfwd/);
    // VMs sharing one network each get their own MAC (QEMU's default is the same for all)
    expect(qemuArgs({ boot, network, mac: '52:54:00:4b:00:02' }, files)).toContain(
      'virtio-net-pci,netdev=net0,mac=52:54:00:4b:00:02',
    );
    // each wrapper execs the next in the same process, so the child's pid is QEMU's
    expect(qemuCommand({ boot, network }, files)).toEqual({
      file: 'ip',
      args: [
        'netns',
        'exec',
        'keel-t-1-tap0',
        'setpriv',
        '--pdeathsig',
        'KILL',
        'qemu-system-x86_64',
        ...args,
      ],
    });
  });

  it('refuses a forwarded port on a tap, which has no host side to forward from', () => {
    const network = { kind: 'tap', netns: 'n', ifname: 'tap0' } as const;
    expect(() => qemuArgs({ boot, network, apiPort: 50000 }, files)).toThrow(/forwards no port/);
  });
});
