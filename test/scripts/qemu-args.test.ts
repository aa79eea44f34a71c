// The QEMU command line of Keel's VMs (pure): the instruction-counting mode the boot benchmark uses to
// measure the guest's own work.
import { describe, expect, it } from 'vitest';
import { CPU_MODEL, ICOUNT_NS_PER_INSTRUCTION, qemuArgs, type VmOptions } from '../../scripts/lib/qemu.js';

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

  it('refuses to count instructions with more than one CPU, or with the default two', () => {
    expect(() => qemuArgs({ boot, cpus: 2, countInstructions: true }, files)).toThrow(/one CPU \(cpus: 1\)/);
    expect(() => qemuArgs({ boot, countInstructions: true }, files)).toThrow(/one CPU/);
  });
});
