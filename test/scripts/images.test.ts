// Boot artefacts: the UKI (scripts/uki.sh), the hybrid ISO (scripts/iso.sh) and the raw GPT disk image
// (scripts/disk.sh). Layout and reproducibility checks run on small stand-ins; the boot checks start
// Keel's kernel with a one-file test initramfs under QEMU (TCG) with SeaBIOS and with OVMF.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fixtures = join(repo, 'test/scripts/fixtures/images');
const script = (name: string): string => join(repo, 'scripts', name);

// Debian's firmware and stub packages (ovmf, systemd-boot-efi).
const ovmfCode = '/usr/share/OVMF/OVMF_CODE_4M.fd';
const ovmfVars = '/usr/share/OVMF/OVMF_VARS_4M.fd';
const stub = '/usr/lib/systemd/boot/efi/linuxx64.efi.stub';
const espType = 'C12A7328-F81F-11D2-BA4B-00A0C93EC93B';
const marker = 'KEEL-TEST-INIT-OK';
const bootLimitMs = 180_000;

/** scratch is a fresh directory removed when the current test ends, passed or not. */
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'keel-images-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function run(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync(cmd, args, {
    cwd: repo,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** runFails runs a command that must fail and returns its stderr. */
function runFails(cmd: string, args: readonly string[]): string {
  try {
    run(cmd, args);
  } catch (err) {
    return String((err as { stderr?: unknown }).stderr ?? '');
  }
  throw new Error(`${cmd} ${args.join(' ')} succeeded`);
}

/** expectedCmdline is images/cmdline read the way the scripts read it, implemented again here. */
function expectedCmdline(file: string): string {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => l.split(/\s+/).join(' '))
    .join(' ');
}

/**
 * fakeBzImage is just enough of a bzImage for uki.sh: the "HdrS" magic at 0x202 and, at 0x20E, the
 * offset (from 0x200) of the version string whose first word is the release.
 */
function fakeBzImage(release: string): Buffer {
  const b = Buffer.alloc(96 * 1024 + 123, 0xcc);
  b.write('HdrS', 0x202, 'latin1');
  const at = 0x3000;
  b.writeUInt16LE(at - 0x200, 0x20e);
  b.write(`${release} (keel@keel) #1 SMP PREEMPT_DYNAMIC\0`, at, 'latin1');
  return b;
}

/** pseudoRandom gives reproducible filler of a given size (no two sections look alike). */
function pseudoRandom(size: number, seed: number): Buffer {
  const b = Buffer.alloc(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    b[i] = x & 0xff;
  }
  return b;
}

interface Section {
  name: string;
  size: number;
  vma: number;
  fileOff: number;
}

/** sections parses `objdump -h` of a PE file. */
function sections(file: string): Section[] {
  const out: Section[] = [];
  for (const line of run('objdump', ['-h', file]).split('\n')) {
    const m = /^\s*\d+\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)/.exec(line);
    if (m)
      out.push({
        name: m[1]!,
        size: parseInt(m[2]!, 16),
        vma: parseInt(m[3]!, 16),
        fileOff: parseInt(m[4]!, 16),
      });
  }
  return out;
}

function sectionAlignment(file: string): number {
  const m = /^SectionAlignment\s+([0-9a-f]+)/m.exec(run('objdump', ['-p', file]));
  if (!m) throw new Error(`no SectionAlignment in ${file}`);
  return parseInt(m[1]!, 16);
}

/** peChecksum computes the PE optional-header CheckSum the way the PE format defines it. */
function peChecksum(image: Buffer): { stored: number; computed: number; timestamp: number } {
  const pe = image.readUInt32LE(0x3c);
  const at = pe + 24 + 64;
  let sum = 0;
  for (let i = 0; i < image.length; i += 2) {
    if (i === at || i === at + 2) continue;
    sum += i + 1 < image.length ? image.readUInt16LE(i) : image[i]!;
    sum = (sum & 0xffff) + (sum >>> 16);
  }
  sum = (sum & 0xffff) + (sum >>> 16);
  return {
    stored: image.readUInt32LE(at),
    computed: sum + image.length,
    timestamp: image.readUInt32LE(pe + 8),
  };
}

function sectionBytes(image: Buffer, s: Section): Buffer {
  return image.subarray(s.fileOff, s.fileOff + s.size);
}

// ---- QEMU -------------------------------------------------------------------------------------------

const live = new Set<ChildProcess>();

interface Boot {
  output: string;
  /** milliseconds from QEMU's start to the marker line, or null if it never came */
  markerMs: number | null;
  code: number | null;
  timedOut: boolean;
}

/** boot runs QEMU until it exits by itself or bootLimitMs passes (then it is killed). */
function boot(args: readonly string[]): Promise<Boot> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn('qemu-system-x86_64', ['-accel', 'tcg', '-cpu', 'max', '-m', '512', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.add(child);
    let output = '';
    let markerMs: number | null = null;
    let timedOut = false;
    const onData = (chunk: Buffer) => {
      output += chunk.toString('latin1');
      if (markerMs === null && output.includes(marker)) markerMs = performance.now() - started;
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, bootLimitMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      live.delete(child);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      live.delete(child);
      resolvePromise({ output, markerMs, code, timedOut });
    });
  });
}

/** pflash gives OVMF its code and a private, writable copy of the variable store. */
function pflash(dir: string): string[] {
  const vars = join(dir, 'OVMF_VARS.fd');
  copyFileSync(ovmfVars, vars);
  return [
    '-drive',
    `if=pflash,format=raw,readonly=on,file=${ovmfCode}`,
    '-drive',
    `if=pflash,format=raw,file=${vars}`,
  ];
}

/** expectBooted checks the test init ran with the given command line and QEMU powered off. */
function expectBooted(b: Boot, cmdline: string): void {
  const tail = b.output.slice(-4000);
  expect(b.timedOut, `QEMU did not power off within ${bootLimitMs / 1000} s:\n${tail}`).toBe(false);
  expect(b.markerMs, tail).not.toBeNull();
  expect(b.code, tail).toBe(0);
  const seen = /KEEL-TEST-CMDLINE: ([^\r\n]*)/.exec(b.output)?.[1] ?? '';
  // GRUB prepends BOOT_IMAGE=<path>; the rest is images/cmdline, unchanged and in order
  expect(seen.replace(/^BOOT_IMAGE=\S+ /, '').trim()).toBe(cmdline);
  // the kernel knows every parameter: only pti=on (read by the x86 code directly, never registered
  // with the generic parser) is reported unknown and passed on to init
  const unknown = /Unknown kernel command line parameters "([^"]*)"/.exec(b.output)?.[1] ?? '';
  expect(
    unknown.split(' ').filter((w) => w !== '' && w !== 'pti=on' && !w.startsWith('BOOT_IMAGE=')),
  ).toEqual([]);
}

afterEach(() => {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
});

// ---- shared inputs ----------------------------------------------------------------------------------

const shared = mkdtempSync(join(tmpdir(), 'keel-images-shared-'));
afterAll(() => rmSync(shared, { recursive: true, force: true }));

/** testInitramfs compiles the fixture init statically and packs it as a newc cpio archive. */
function testInitramfs(): string {
  const root = join(shared, 'initramfs-root');
  mkdirSync(join(root, 'dev'), { recursive: true });
  mkdirSync(join(root, 'proc'), { recursive: true });
  run('musl-gcc', ['-static', '-Os', '-Wall', '-Werror', '-o', join(root, 'init'), join(fixtures, 'init.c')]);
  const cpio = join(shared, 'initramfs.cpio');
  const archive = execFileSync('cpio', ['-o', '-H', 'newc', '--quiet', '-R', '0:0'], {
    cwd: root,
    input: '.\n./dev\n./proc\n./init\n',
    maxBuffer: 64 * 1024 * 1024,
  });
  writeFileSync(cpio, archive);
  return cpio;
}

/**
 * keelKernel is Keel's own kernel: KEEL_KERNEL if set, else what scripts/kernel.sh prints (a cache hit
 * when the kernel was built before, otherwise it builds it, which takes a while).
 */
function keelKernel(): string {
  const fromEnv = process.env.KEEL_KERNEL;
  if (fromEnv) return fromEnv;
  const lines = run('bash', [script('kernel.sh')])
    .trim()
    .split('\n');
  return lines[lines.length - 1]!;
}

const cmdlineFile = join(repo, 'images/cmdline');
const osRelease = join(fixtures, 'os-release');

// ---- images/cmdline -----------------------------------------------------------------------------------

describe('images/cmdline', () => {
  it('holds the default command line, serial console last', () => {
    const cmdline = expectedCmdline(cmdlineFile);
    const words = cmdline.split(' ');
    expect(words).toEqual(
      expect.arrayContaining([
        'console=tty0',
        'console=ttyS0',
        'init_on_alloc=1',
        'slab_nomerge',
        'pti=on',
        'consoleblank=0',
        'printk.devkmsg=on',
      ]),
    );
    // the network is Keel's own: the kernel configures no address
    expect(words.filter((w) => w.startsWith('ip='))).toEqual([]);
    // the last console= is /dev/console, where init's output goes
    expect(words.filter((w) => w.startsWith('console=')).at(-1)).toBe('console=ttyS0');
    expect(new Set(words).size).toBe(words.length);
  });

  it('is read without comments and blank lines, words joined by single spaces', () => {
    const dir = scratch();
    const file = join(dir, 'cmdline');
    writeFileSync(file, '# a comment\n\n  console=ttyS0   quiet \n\t# indented comment\nfoo=bar\r\nlast=1');
    const out = run('bash', ['-c', `source "${script('lib/cmdline.sh')}" && keel_cmdline "$1"`, 'x', file]);
    expect(out).toBe('console=ttyS0 quiet foo=bar last=1');
    writeFileSync(file, '# only comments\n\n');
    expect(
      runFails('bash', ['-c', `source "${script('lib/cmdline.sh')}" && keel_cmdline "$1"`, 'x', file]),
    ).toMatch(/no parameters/);
  });
});

// ---- UKI ------------------------------------------------------------------------------------------------

describe('uki.sh', () => {
  function inputs(dir: string) {
    const kernel = join(dir, 'bzImage');
    const initrd = join(dir, 'initrd');
    writeFileSync(kernel, fakeBzImage('6.1.999-keel-test'));
    writeFileSync(initrd, pseudoRandom(300_001, 7));
    return { kernel, initrd };
  }

  it('appends .osrel .cmdline .uname .linux .initrd in order, aligned, after the stub', () => {
    const dir = scratch();
    const { kernel, initrd } = inputs(dir);
    const uki = join(dir, 'keel.efi');
    run('bash', [script('uki.sh'), uki, kernel, initrd, osRelease]);

    const base = sections(stub);
    const all = sections(uki);
    // the stub's own sections stay as they were, first
    expect(all.slice(0, base.length).map((s) => [s.name, s.size, s.vma])).toEqual(
      base.map((s) => [s.name, s.size, s.vma]),
    );
    const added = all.slice(base.length);
    expect(added.map((s) => s.name)).toEqual(['.osrel', '.cmdline', '.uname', '.linux', '.initrd']);

    const align = sectionAlignment(stub);
    let end = Math.max(...base.map((s) => s.vma + s.size));
    for (const s of added) {
      expect(s.vma % align, s.name).toBe(0);
      expect(s.vma, s.name).toBeGreaterThanOrEqual(end);
      // each one at the first aligned address after its predecessor
      expect(s.vma, s.name).toBe(Math.ceil(end / align) * align);
      end = s.vma + s.size;
    }

    const image = readFileSync(uki);
    const byName = new Map(added.map((s) => [s.name, s]));
    const cmdline = expectedCmdline(cmdlineFile);
    expect(byName.get('.cmdline')!.size).toBe(Buffer.byteLength(cmdline));
    expect(sectionBytes(image, byName.get('.cmdline')!).toString('utf8')).toBe(cmdline);
    expect(sectionBytes(image, byName.get('.osrel')!).equals(readFileSync(osRelease))).toBe(true);
    expect(sectionBytes(image, byName.get('.uname')!).toString('utf8')).toBe('6.1.999-keel-test');
    expect(byName.get('.linux')!.size).toBe(statSync(kernel).size);
    expect(sectionBytes(image, byName.get('.linux')!).equals(readFileSync(kernel))).toBe(true);
    expect(byName.get('.initrd')!.size).toBe(statSync(initrd).size);
    expect(sectionBytes(image, byName.get('.initrd')!).equals(readFileSync(initrd))).toBe(true);

    // a valid PE header: the stub's zero timestamp kept, the checksum matching the bytes
    const sum = peChecksum(image);
    expect(sum.timestamp).toBe(0);
    expect(sum.stored).toBe(sum.computed);
  });

  it('takes CMDLINE_FILE and KERNEL_RELEASE, and is reproducible', async () => {
    const dir = scratch();
    const { kernel, initrd } = inputs(dir);
    const custom = join(dir, 'cmdline');
    writeFileSync(custom, '# test\nconsole=ttyS0\n\nkeel.test=1\n');
    const a = join(dir, 'a.efi');
    const b = join(dir, 'b.efi');
    run('bash', [script('uki.sh'), a, kernel, initrd, osRelease, custom], {
      KERNEL_RELEASE: '9.9.9-override',
    });
    // a second build a moment later from inputs with other timestamps gives the same bytes
    await new Promise((r) => setTimeout(r, 1100));
    utimesSync(kernel, new Date('2001-02-03T04:05:06Z'), new Date('2001-02-03T04:05:06Z'));
    run('bash', [script('uki.sh'), b, kernel, initrd, osRelease, custom], {
      KERNEL_RELEASE: '9.9.9-override',
    });
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);

    const image = readFileSync(a);
    const byName = new Map(sections(a).map((s) => [s.name, s]));
    expect(sectionBytes(image, byName.get('.cmdline')!).toString('utf8')).toBe('console=ttyS0 keel.test=1');
    expect(sectionBytes(image, byName.get('.uname')!).toString('utf8')).toBe('9.9.9-override');
  });

  it('refuses a kernel that is no bzImage and leaves no output behind', () => {
    const dir = scratch();
    const { initrd } = inputs(dir);
    const bogus = join(dir, 'bogus');
    writeFileSync(bogus, Buffer.alloc(4096));
    const out = join(dir, 'keel.efi');
    expect(runFails('bash', [script('uki.sh'), out, bogus, initrd, osRelease])).toMatch(/not a bzImage/);
    expect(() => statSync(out)).toThrow();
    expect(() => statSync(`${out}.tmp`)).toThrow();
  });
});

// ---- disk image -------------------------------------------------------------------------------------

describe('disk.sh', () => {
  const mib = 1024 * 1024;

  function dump(file: string): string {
    return run('sfdisk', ['--dump', file]);
  }

  it('writes a GPT image with fixed GUIDs and an EFI partition holding the UKI as BOOTX64.EFI', async () => {
    const dir = scratch();
    const uki = join(dir, 'keel.efi');
    writeFileSync(uki, pseudoRandom(3 * mib + 17, 3));
    const a = join(dir, 'a.raw');
    run('bash', [script('disk.sh'), a, uki]);

    // the default size: the smallest multiple of 64 MiB that fits
    expect(statSync(a).size).toBe(64 * mib);
    const table = dump(a);
    expect(table).toMatch(/^label: gpt$/m);
    expect(table).toMatch(/^label-id: 0FE904F8-B235-40B4-BC60-295B7EA57190$/m);
    const parts = table.split('\n').filter((l) => l.includes(' : start='));
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatch(/start=\s*2048,/);
    expect(parts[0]).toContain(`type=${espType}`);
    expect(parts[0]).toContain('uuid=D2138F21-0218-4208-A40F-D2EB4FDA48E7');
    expect(parts[0]).toContain('name="EFI"');

    const esp = `${a}@@${2048 * 512}`;
    const env = { MTOOLS_SKIP_CHECK: '1' };
    expect(run('mdir', ['-i', esp, '::/EFI/BOOT'], env)).toMatch(/BOOTX64\s+EFI\s+3145745/);
    expect(run('minfo', ['-i', esp], env)).toMatch(/serial number: 4B45454C/);
    expect(run('minfo', ['-i', esp], env)).toMatch(/disk type="FAT32/);
    const copied = join(dir, 'copied.efi');
    run('mcopy', ['-i', esp, '::/EFI/BOOT/BOOTX64.EFI', copied], env);
    expect(readFileSync(copied).equals(readFileSync(uki))).toBe(true);

    // same UKI (with another timestamp), a moment later: the same bytes
    await new Promise((r) => setTimeout(r, 1100));
    utimesSync(uki, new Date('2001-02-03T04:05:06Z'), new Date('2001-02-03T04:05:06Z'));
    const b = join(dir, 'b.raw');
    run('bash', [script('disk.sh'), b, uki]);
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
  });

  it('honours SIZE_MIB and refuses one too small for the UKI', () => {
    const dir = scratch();
    const uki = join(dir, 'keel.efi');
    writeFileSync(uki, pseudoRandom(50 * mib, 5));
    const out = join(dir, 'disk.raw');
    expect(runFails('bash', [script('disk.sh'), out, uki, '40'])).toMatch(/too small/);
    expect(() => statSync(out)).toThrow();
    run('bash', [script('disk.sh'), out, uki, '100']);
    expect(statSync(out).size).toBe(100 * mib);
    // the EFI partition ends 1 MiB before the end, leaving room for the backup GPT
    expect(dump(out)).toMatch(new RegExp(`size=\\s*${(100 - 2) * 2048},`));
    run('bash', [script('disk.sh'), out, uki]);
    expect(statSync(out).size).toBe(64 * mib);
  });
});

// ---- ISO ------------------------------------------------------------------------------------------------

describe('iso.sh', () => {
  it('lays out a hybrid BIOS + UEFI ISO carrying the kernel and the initramfs once, reproducibly', async () => {
    const dir = scratch();
    const kernel = join(dir, 'bzImage');
    const initrd = join(dir, 'initrd');
    writeFileSync(kernel, pseudoRandom(2 * 1024 * 1024, 11));
    writeFileSync(initrd, pseudoRandom(3 * 1024 * 1024, 13));
    const a = join(dir, 'a.iso');
    run('bash', [script('iso.sh'), a, kernel, initrd]);

    const report = run('xorriso', [
      '-indev',
      a,
      '-report_el_torito',
      'plain',
      '-report_system_area',
      'plain',
      '-find',
      '/',
      '-type',
      'f',
      '-exec',
      'report_lba',
    ]);
    expect(report).toMatch(/El Torito boot img\s*:\s*1\s+BIOS/);
    expect(report).toMatch(/El Torito boot img\s*:\s*2\s+UEFI/);
    expect(report).toMatch(/grub2-mbr/);
    const files = [...report.matchAll(/'(\/[^']+)'\s*$/gm)].map((m) => m[1]);
    expect(files.sort()).toEqual([
      '/boot/grub/efi.img',
      '/boot/grub/eltorito.img',
      '/boot/grub/grub.cfg',
      '/boot/initramfs',
      '/boot/vmlinuz',
    ]);
    expect(run('xorriso', ['-indev', a, '-pvd_info'])).toMatch(/Volume Id\s*:\s*KEEL/i);

    const grubCfg = join(dir, 'grub.cfg');
    run('xorriso', ['-osirrox', 'on', '-indev', a, '-extract', '/boot/grub/grub.cfg', grubCfg]);
    const cfg = readFileSync(grubCfg, 'utf8');
    const quoted = expectedCmdline(cmdlineFile)
      .split(' ')
      .map((w) => `'${w}'`)
      .join(' ');
    expect(cfg).toContain(`linux /boot/vmlinuz ${quoted}`);
    expect(cfg).toContain('initrd /boot/initramfs');
    expect(cfg).toMatch(/menuentry "Keel"/);
    expect(cfg).toMatch(/terminal_output serial console/);

    // the payload once: everything else (GRUB for both firmware kinds, tables) stays small
    const overhead = statSync(a).size - statSync(kernel).size - statSync(initrd).size;
    expect(overhead).toBeLessThan(4 * 1024 * 1024);

    await new Promise((r) => setTimeout(r, 1100));
    utimesSync(kernel, new Date('2001-02-03T04:05:06Z'), new Date('2001-02-03T04:05:06Z'));
    const b = join(dir, 'b.iso');
    run('bash', [script('iso.sh'), b, kernel, initrd]);
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
  });

  it('with a UKI, carries the install assets under /keel/install, reproducibly', () => {
    const dir = scratch();
    const kernel = join(dir, 'bzImage');
    const initrd = join(dir, 'initrd');
    const uki = join(dir, 'keel.efi');
    writeFileSync(kernel, pseudoRandom(1024 * 1024, 17));
    writeFileSync(initrd, pseudoRandom(1024 * 1024, 19));
    writeFileSync(uki, pseudoRandom(2 * 1024 * 1024, 23));
    const a = join(dir, 'a.iso');
    run('bash', [script('iso.sh'), a, kernel, initrd, uki]);
    const out = join(dir, 'install');
    run('xorriso', ['-osirrox', 'on', '-indev', a, '-extract', '/keel/install', out]);
    const names = execFileSync('ls', [out], { encoding: 'utf8' }).trim().split('\n');
    expect(names).toEqual(['boot.img', 'cmdline', 'core.img', 'keel.efi', 'systemd-bootx64.efi']);
    expect(readFileSync(join(out, 'keel.efi')).equals(readFileSync(uki))).toBe(true);
    expect(
      readFileSync(join(out, 'systemd-bootx64.efi')).equals(
        readFileSync('/usr/lib/systemd/boot/efi/systemd-bootx64.efi'),
      ),
    ).toBe(true);
    expect(readFileSync(join(out, 'boot.img')).equals(readFileSync('/usr/lib/grub/i386-pc/boot.img'))).toBe(
      true,
    );
    // core.img: diskboot.img's blocklist entry (load segment 0x820) at the end of its first sector
    expect(readFileSync(join(out, 'core.img')).readUInt16LE(510)).toBe(0x820);
    expect(readFileSync(join(out, 'cmdline'), 'utf8')).toBe(`${expectedCmdline(cmdlineFile)}\n`);
    // the kernel and the initramfs GRUB's slots take stay where the ISO boots them from
    const files = run('xorriso', ['-indev', a, '-find', '/boot', '-type', 'f']);
    expect(files).toMatch(/'\/boot\/vmlinuz'/);
    expect(files).toMatch(/'\/boot\/initramfs'/);
    const b = join(dir, 'b.iso');
    run('bash', [script('iso.sh'), b, kernel, initrd, uki]);
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
  });

  it('with layers, carries each as /keel/<its file name> beside the install assets, reproducibly', () => {
    const dir = scratch();
    const [kernel, initrd, uki, components, kubernetes] = [
      'bzImage',
      'initrd',
      'keel.efi',
      'components.sqsh',
      'kubernetes.sqsh',
    ].map((f) => join(dir, f));
    writeFileSync(kernel!, pseudoRandom(1024 * 1024, 29));
    writeFileSync(initrd!, pseudoRandom(1024 * 1024, 31));
    writeFileSync(uki!, pseudoRandom(1024 * 1024, 37));
    writeFileSync(components!, pseudoRandom(3 * 1024 * 1024, 41));
    writeFileSync(kubernetes!, pseudoRandom(2 * 1024 * 1024, 43));
    // a layer without the UKI is refused: the install that copies it needs the UKI
    expect(
      runFails('bash', [script('iso.sh'), join(dir, 'x.iso'), kernel!, initrd!, '', components!]),
    ).toMatch(/usage/);
    // a layer is named for itself: NAME.sqsh
    expect(runFails('bash', [script('iso.sh'), join(dir, 'x.iso'), kernel!, initrd!, uki!, kernel!])).toMatch(
      /a layer is NAME\.sqsh/,
    );
    const a = join(dir, 'a.iso');
    run('bash', [script('iso.sh'), a, kernel!, initrd!, uki!, components!, kubernetes!]);
    const files = run('xorriso', ['-indev', a, '-find', '/keel', '-type', 'f']);
    expect(files).toMatch(/'\/keel\/install\/keel\.efi'/);
    for (const [name, layer] of [
      ['components', components!],
      ['kubernetes', kubernetes!],
    ] as const) {
      expect(files).toMatch(new RegExp(`'/keel/${name}\\.sqsh'`));
      const out = join(dir, `${name}.out`);
      run('xorriso', ['-osirrox', 'on', '-indev', a, '-extract', `/keel/${name}.sqsh`, out]);
      expect(readFileSync(out).equals(readFileSync(layer)), name).toBe(true);
    }
    const b = join(dir, 'b.iso');
    run('bash', [script('iso.sh'), b, kernel!, initrd!, uki!, components!, kubernetes!]);
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
  });
});

// ---- boots ------------------------------------------------------------------------------------------------

describe('booting Keel kernel + test initramfs under QEMU', () => {
  let kernel = '';
  let initrd = '';
  let uki = '';
  let iso = '';
  let disk = '';
  const cmdline = expectedCmdline(cmdlineFile);
  const timings: string[] = [];

  beforeAll(() => {
    kernel = keelKernel();
    initrd = testInitramfs();
    uki = join(shared, 'keel.efi');
    iso = join(shared, 'keel.iso');
    disk = join(shared, 'disk.raw');
    run('bash', [script('uki.sh'), uki, kernel, initrd, osRelease]);
    run('bash', [script('iso.sh'), iso, kernel, initrd, uki]);
    run('bash', [script('disk.sh'), disk, uki]);
    const overhead = statSync(iso).size - statSync(kernel).size - statSync(initrd).size;
    timings.push(
      `kernel ${statSync(kernel).size} B, initramfs ${statSync(initrd).size} B, ISO ${statSync(iso).size} B ` +
        `(overhead ${(overhead / 1024 / 1024).toFixed(2)} MiB), UKI ${statSync(uki).size} B, disk ${statSync(disk).size} B`,
    );
  }, 3_600_000);

  afterAll(() => {
    if (timings.length > 0) console.log(`boot images:\n  ${timings.join('\n  ')}`);
  });

  it('the UKI on the raw disk boots under OVMF through the fallback path', async () => {
    const dir = scratch();
    const b = await boot([
      '-machine',
      'q35',
      '-nographic',
      '-no-reboot',
      ...pflash(dir),
      '-drive',
      `file=${disk},format=raw,if=virtio`,
    ]);
    expectBooted(b, cmdline);
    expect(b.output).toContain('EFI stub: Loaded initrd');
    timings.push(`UEFI (OVMF) UKI disk: QEMU start -> ${marker} ${(b.markerMs! / 1000).toFixed(1)} s`);
  }, 300_000);

  it('the ISO boots with BIOS (SeaBIOS)', async () => {
    const b = await boot(['-machine', 'pc', '-nographic', '-no-reboot', '-cdrom', iso]);
    expectBooted(b, cmdline);
    expect(b.output).toContain('GNU GRUB');
    timings.push(`BIOS (SeaBIOS) ISO: QEMU start -> ${marker} ${(b.markerMs! / 1000).toFixed(1)} s`);
  }, 300_000);

  it('the ISO boots with UEFI (OVMF)', async () => {
    const dir = scratch();
    const b = await boot(['-machine', 'q35', '-nographic', '-no-reboot', ...pflash(dir), '-cdrom', iso]);
    expectBooted(b, cmdline);
    expect(b.output).toContain('GNU GRUB');
    timings.push(`UEFI (OVMF) ISO: QEMU start -> ${marker} ${(b.markerMs! / 1000).toFixed(1)} s`);
  }, 300_000);

  // hybrid: the same file written to a USB stick is a disk, booted through the MBR code or the GPT ESP
  it('the ISO as a disk (USB stick) boots with BIOS', async () => {
    const b = await boot([
      '-machine',
      'pc',
      '-nographic',
      '-no-reboot',
      '-drive',
      `file=${iso},format=raw,if=virtio,readonly=on`,
    ]);
    expectBooted(b, cmdline);
    timings.push(`BIOS (SeaBIOS) ISO as disk: QEMU start -> ${marker} ${(b.markerMs! / 1000).toFixed(1)} s`);
  }, 300_000);

  it('the ISO as a disk (USB stick) boots with UEFI', async () => {
    const dir = scratch();
    const b = await boot([
      '-machine',
      'q35',
      '-nographic',
      '-no-reboot',
      ...pflash(dir),
      '-drive',
      `file=${iso},format=raw,if=virtio,readonly=on`,
    ]);
    expectBooted(b, cmdline);
    timings.push(`UEFI (OVMF) ISO as disk: QEMU start -> ${marker} ${(b.markerMs! / 1000).toFixed(1)} s`);
  }, 300_000);
});
