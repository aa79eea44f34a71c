// Stage 1 (/init of the initramfs) run for real as PID 1 of a PID + mount namespace, unpacked from an
// initramfs built by scripts/initramfs.sh into a tmpfs, with a test payload as the squashfs's /sbin/init.
// Its kernel-log lines land in the host's log (devtmpfs and /dev/kmsg are not namespaced): read them there.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  buildInit,
  buildInitramfs,
  compileStatic,
  kmsgCursor,
  makeSquashfs,
  requireRoot,
  runInitramfs,
  sleep,
  tempDir,
  within,
} from './harness.js';

const PREFIX = '[keel] [initramfs] ';

let work: ReturnType<typeof tempDir> | undefined;
let plain = '';
let stage1 = '';
let good = ''; // initramfs whose squashfs has the payload as /sbin/init
let broken = ''; // initramfs whose squashfs has no /sbin/init
let planned = ''; // good, plus a read-ahead plan naming 65 parts of /sbin/init
let misplanned = ''; // good, plus a read-ahead plan with a bad line

const PLAN = '/usr/lib/keel/init.read-ahead';
const MIB_PAGES = 256;

/** the payload's report: "key value" lines grouped by key */
/** pages of /sbin/init in the page cache, per MiB, as the payload counted them after stage 1's children ended */
const residency = (rep: Map<string, string[]>, key = 'resident'): number[] =>
  (rep.get(key) ?? []).map((l) => Number(l.split(' ')[1]));

function parseReport(text: string): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const sp = line.indexOf(' ');
    const key = sp < 0 ? line : line.slice(0, sp);
    m.set(key, [...(m.get(key) ?? []), sp < 0 ? '' : line.slice(sp + 1)]);
  }
  return m;
}

interface Mount {
  id: string;
  parent: string;
  point: string;
  options: string[];
  fstype: string;
  source: string;
}

/** one /proc/self/mountinfo line: "id parent maj:min root point options [tags] - fstype source superopts" */
function parseMount(line: string): Mount {
  const [left = '', right = ''] = line.split(' - ');
  const f = left.split(' ');
  const [fstype = '', source = ''] = right.split(' ');
  return {
    id: f[0] ?? '',
    parent: f[1] ?? '',
    point: f[4] ?? '',
    options: (f[5] ?? '').split(','),
    fstype,
    source,
  };
}

beforeAll(() => {
  requireRoot();
  work = tempDir('keel-stage1-');
  const w = work.path;
  const built = buildInit(join(w, 'bin'));
  stage1 = built.stage1;

  const root = join(w, 'rootfs');
  for (const d of ['dev', 'proc', 'sys', 'etc', 'sbin']) mkdirSync(join(root, d), { recursive: true });
  writeFileSync(join(root, 'etc/os-release'), 'ID=keel-test\n');
  // 2 MiB nothing reads, unless a read-ahead plan names it
  writeFileSync(join(root, 'etc/ballast'), Buffer.alloc(2 << 20, 'keel'));
  compileStatic('payload.c', join(root, 'sbin/init'));
  plain = buildInitramfs(join(w, 'plain.cpio'), stage1, {
    '/rootfs.sqsh': makeSquashfs(root, join(w, 'plain.sqsh')),
  });
  mkdirSync(join(root, 'usr/lib/keel'), { recursive: true });
  copyFileSync(built.prefault, join(root, 'usr/lib/keel/prefault.so'));
  good = buildInitramfs(join(w, 'good.cpio'), stage1, {
    '/rootfs.sqsh': makeSquashfs(root, join(w, 'good.sqsh')),
  });
  // MiB 0 and MiB 4 of the payload (over 6 MiB, most of it data it never reads): MiB 0 in 64 pieces, last
  // first, as a traced plan names the blocks a start touches in the order it touches them
  const pieces = Array.from({ length: 64 }, (_, i) => `${(63 - i) * 16384} 16384\n`).join('');
  writeFileSync(join(root, PLAN), `# test plan\n/etc/ballast\n${pieces}${4 << 20} ${1 << 20}\n`);
  planned = buildInitramfs(join(w, 'planned.cpio'), stage1, {
    '/rootfs.sqsh': makeSquashfs(root, join(w, 'planned.sqsh')),
  });
  writeFileSync(join(root, PLAN), `0 ${1 << 20}\n-5 10\n`);
  misplanned = buildInitramfs(join(w, 'misplanned.cpio'), stage1, {
    '/rootfs.sqsh': makeSquashfs(root, join(w, 'misplanned.sqsh')),
  });

  const bare = join(w, 'bare');
  for (const d of ['dev', 'proc', 'sys', 'etc']) mkdirSync(join(bare, d), { recursive: true });
  broken = buildInitramfs(join(w, 'broken.cpio'), stage1, {
    '/rootfs.sqsh': makeSquashfs(bare, join(w, 'broken.sqsh')),
  });
});

afterAll(() => work?.remove());

describe('stage 1 as PID 1 of an initramfs', () => {
  it('loop-mounts rootfs.sqsh, switches root, frees the initramfs and execs /sbin/init', async () => {
    const kmsg = kmsgCursor();
    const r = runInitramfs(good, join(work!.path, 'mnt-good'));
    onTestFinished(async () => void (await r.kill()));
    const ended = await within(r.ended, 10_000);
    expect(ended, `stage 1 did not hand over:\n${r.output()}`).toEqual({ code: 0, signal: null });
    // the kernel log was writable, so nothing fell back to stderr
    expect(r.output()).toBe('');

    const rep = parseReport(r.report());
    expect(rep.get('end'), r.report()).toEqual(['']);
    expect(rep.get('pid')).toEqual(['1']);
    expect(rep.get('argv')).toEqual(['/sbin/init']);
    expect(rep.get('env')).toEqual([
      'NODE_OPTIONS=--v8-pool-size=1 --use-openssl-ca',
      'PATH=/usr/bin:/usr/sbin:/bin:/sbin',
      'HOME=/',
      'TERM=linux',
      'LD_PRELOAD=/usr/lib/keel/prefault.so',
      'GLIBC_TUNABLES=glibc.malloc.top_pad=4194304',
    ]);

    // the read-ahead child read all of /sbin/init (no plan in this root) and ended cleanly
    expect(rep.get('child')).toEqual(['exited 0']);
    const resident = residency(rep);
    expect(resident.length).toBeGreaterThan(6);
    expect(resident.slice(0, -1)).toEqual(resident.slice(0, -1).map(() => MIB_PAGES));
    expect(residency(rep, 'ballast')).toEqual([0, 0]);

    // "/" is the squashfs on a loop device; the pseudo filesystems were moved under it
    const mounts = (rep.get('mountinfo') ?? []).map(parseMount);
    const root = mounts.find((m) => m.point === '/');
    expect(root).toMatchObject({ fstype: 'squashfs', source: expect.stringMatching(/^\/dev\/loop\d+$/) });
    expect(root?.options).toEqual(expect.arrayContaining(['ro', 'nosuid', 'nodev']));
    const under = (point: string) => mounts.find((m) => m.point === point && m.parent === root?.id);
    expect(under('/dev')).toMatchObject({ fstype: 'devtmpfs', options: expect.arrayContaining(['nosuid']) });
    for (const [point, fstype] of [
      ['/proc', 'proc'],
      ['/sys', 'sysfs'],
    ] as const)
      expect(under(point)).toMatchObject({
        fstype,
        options: expect.arrayContaining(['nosuid', 'nodev', 'noexec']),
      });

    // only the squashfs is visible at /, and the initramfs files were deleted (the loop device still
    // holds the unlinked rootfs.sqsh), read-only and set to detach itself
    expect((rep.get('rootdir') ?? []).sort()).toEqual(['dev', 'etc', 'proc', 'sbin', 'sys', 'usr']);
    const loop = root!.source.slice('/dev/'.length);
    expect(rep.get(`loop`)).toEqual([
      expect.stringMatching(new RegExp(`^${loop} loop/backing_file .*/rootfs\\.sqsh \\(deleted\\)$`)),
      `${loop} loop/autoclear 1`,
      `${loop} ro 1`,
    ]);

    // fds 0-2 are the console, 3 is this test's report channel
    const fds = rep.get('fd') ?? [];
    expect(fds.slice(0, 4)).toEqual([
      '0 -> /dev/console',
      '1 -> /dev/console',
      '2 -> /dev/console',
      expect.stringMatching(/^3 -> socket:/),
    ]);
    // nothing stage 1 opened leaked into /sbin/init (other fds were inherited from the test runner)
    expect(fds.filter((f) => /kmsg|loop|rootfs\.sqsh| -> \/(root)?$/.test(f))).toEqual([]);

    // in this order; kept as a subsequence so that another stage 1 logging at the same time cannot break it
    const logged = kmsg.records(PREFIX).map((k) => k.message.slice(PREFIX.length));
    const expected: (string | RegExp)[] = [
      'stage 1 started',
      'mounted /dev, /proc, /sys',
      `attached /rootfs.sqsh to /dev/${loop} (read-only, autoclear)`,
      `mounted /dev/${loop} (squashfs) read-only at /root`,
      'moved /dev, /proc, /sys into /root',
      // /init, /rootfs.sqsh and the emptied /dev, /proc, /sys (never /root, a mount point)
      'freed the initramfs: 5 entries removed',
      'switched root: / is now the squashfs',
      /^reading \/sbin\/init ahead in pid \d+$/,
      'exec /sbin/init',
    ];
    let at = 0;
    const matches = (line: string, e: string | RegExp | undefined) =>
      typeof e === 'string' ? line === e : (e?.test(line) ?? false);
    for (const line of logged) if (matches(line, expected[at])) at++;
    expect(at, `stage 1 logged:\n${logged.join('\n')}`).toBe(expected.length);

    // the namespace took the mount with it, and AUTOCLEAR then detached the loop device
    const backing = `/sys/block/${loop}/loop/backing_file`;
    const stillOurs = () =>
      existsSync(backing) && readFileSync(backing, 'utf8').includes('rootfs.sqsh (deleted)');
    for (let i = 0; i < 50 && stillOurs(); i++) await sleep(100);
    expect(stillOurs(), `${loop} was not detached`).toBe(false);
  });

  it('preloads nothing into /sbin/init when the root has no prefault.so', async () => {
    const r = runInitramfs(plain, join(work!.path, 'mnt-plain'));
    onTestFinished(async () => void (await r.kill()));
    const ended = await within(r.ended, 10_000);
    expect(ended, `stage 1 did not hand over:\n${r.output()}`).toEqual({ code: 0, signal: null });
    expect(parseReport(r.report()).get('env')).toEqual([
      'NODE_OPTIONS=--v8-pool-size=1 --use-openssl-ca',
      'PATH=/usr/bin:/usr/sbin:/bin:/sbin',
      'HOME=/',
      'TERM=linux',
    ]);
  });

  it('without /sbin/init, logs it and reboots after 10 s, or halts for ever with panic=0', async () => {
    const w = work!.path;
    writeFileSync(join(w, 'cmdline-reboot'), 'console=ttyS0 panic=1 -- panic=0\n');
    writeFileSync(join(w, 'cmdline-halt'), 'console=ttyS0 panic=0\n');
    const kmsg = kmsgCursor();
    const started = Date.now();
    const rebooting = runInitramfs(broken, join(w, 'mnt-reboot'), { cmdlineFile: join(w, 'cmdline-reboot') });
    onTestFinished(async () => void (await rebooting.kill()));
    const halting = runInitramfs(broken, join(w, 'mnt-halt'), { cmdlineFile: join(w, 'cmdline-halt') });
    onTestFinished(async () => void (await halting.kill()));

    // PID 1 must not exit: both are still there after a while, having said why they stopped
    await sleep(2500);
    expect(rebooting.hasEnded(), rebooting.output()).toBe(false);
    expect(halting.hasEnded(), halting.output()).toBe(false);
    const messages = kmsg.records(PREFIX).map((k) => k.message.slice(PREFIX.length));
    expect(
      messages.filter((m) => m === 'find init failed: /sbin/init: No such file or directory'),
    ).toHaveLength(2);
    expect(messages).toContain('rebooting in 10 s');
    expect(messages).toContain('panic=0: halting, not rebooting');
    // it failed before switching root
    expect(messages).not.toContain('moved /dev, /proc, /sys into /root');

    // reboot(2) in a PID namespace ends only that namespace: its init dies of SIGHUP
    const ended = await within(rebooting.ended, 12_000);
    expect(ended).toEqual({ code: null, signal: 'SIGHUP' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
    expect(halting.hasEnded()).toBe(false);
  }, 25_000);

  it("reads ahead only the parts of /sbin/init the root's plan names", async () => {
    const kmsg = kmsgCursor();
    const r = runInitramfs(planned, join(work!.path, 'mnt-planned'));
    onTestFinished(async () => void (await r.kill()));
    expect(await within(r.ended, 10_000), r.output()).toEqual({ code: 0, signal: null });
    const rep = parseReport(r.report());
    expect(rep.get('child')).toEqual(['exited 0']);
    const resident = residency(rep);
    expect(resident[0]).toBe(MIB_PAGES);
    expect(resident[4]).toBe(MIB_PAGES);
    // between the two ranges, beyond what the kernel's own read-ahead adds at their ends
    expect(resident[2]).toBe(0);
    // the other file the plan names, whole
    expect(residency(rep, 'ballast')).toEqual([MIB_PAGES, MIB_PAGES]);
    const logged = kmsg.records(PREFIX).map((k) => k.message.slice(PREFIX.length));
    expect(logged).toContainEqual(
      expect.stringMatching(
        /^reading \/sbin\/init ahead in pid \d+: 65 range\(s\), 2048 KiB, and 1 other file\(s\), as \/usr\/lib\/keel\/init\.read-ahead says$/,
      ),
    );
  });

  it('reads all of /sbin/init when the plan has a bad line, and says which', async () => {
    const kmsg = kmsgCursor();
    const r = runInitramfs(misplanned, join(work!.path, 'mnt-misplanned'));
    onTestFinished(async () => void (await r.kill()));
    expect(await within(r.ended, 10_000), r.output()).toEqual({ code: 0, signal: null });
    const rep = parseReport(r.report());
    expect(rep.get('child')).toEqual(['exited 0']);
    expect(residency(rep)[2]).toBe(MIB_PAGES);
    const logged = kmsg.records(PREFIX).map((k) => k.message.slice(PREFIX.length));
    expect(logged).toContain(
      `ignoring ${PLAN}: line 2 is neither "OFFSET LENGTH" (decimal, length > 0) nor a path`,
    );
    expect(logged).toContainEqual(expect.stringMatching(/^reading \/sbin\/init ahead in pid \d+$/));
  });

  it('refuses to run when it is not PID 1', () => {
    requireRoot();
    // inside a namespace all the same, so that even a broken guard could not touch the host
    const out = execFileSync(
      'unshare',
      ['--pid', '--fork', '--mount', '--kill-child=SIGKILL', 'sh', '-c', '"$0" 2>&1; echo "exit $?"', stage1],
      { encoding: 'utf8' },
    );
    expect(out).toBe(`${stage1}: only runs as PID 1 of an initramfs\nexit 1\n`);
  });
});

/** the entries of a newc cpio, as the kernel reads them */
interface NewcEntry {
  name: string;
  mode: number;
  uid: number;
  gid: number;
  mtime: number;
}
function readNewc(buf: Buffer): NewcEntry[] {
  const out: NewcEntry[] = [];
  let off = 0;
  const pad4 = (n: number) => (n + 3) & ~3;
  for (;;) {
    expect(buf.toString('latin1', off, off + 6)).toBe('070701');
    const field = (i: number) =>
      Number.parseInt(buf.toString('latin1', off + 6 + i * 8, off + 14 + i * 8), 16);
    const [mode, uid, gid, mtime, size, namesize] = [
      field(1),
      field(2),
      field(3),
      field(5),
      field(6),
      field(11),
    ];
    const name = buf.toString('utf8', off + 110, off + 110 + namesize - 1);
    off = pad4(pad4(off + 110 + namesize) + size);
    if (name === 'TRAILER!!!') return out;
    out.push({ name, mode, uid, gid, mtime });
  }
}

describe('scripts/init.sh', () => {
  it('builds the same static binaries again, byte for byte', () => {
    const again = buildInit(join(work!.path, 'bin-again'));
    expect(readFileSync(again.stage1).equals(readFileSync(stage1))).toBe(true);
    expect(readFileSync(again.floor).equals(readFileSync(join(work!.path, 'bin/floor')))).toBe(true);
    // static: no PT_INTERP program header, so no dynamic loader is needed in the initramfs
    const elf = readFileSync(stage1);
    const [phoff, phentsize, phnum] = [
      Number(elf.readBigUInt64LE(0x20)),
      elf.readUInt16LE(0x36),
      elf.readUInt16LE(0x38),
    ];
    const types = Array.from({ length: phnum }, (_, i) => elf.readUInt32LE(phoff + i * phentsize));
    expect(types).not.toContain(3);
  });
});

describe('scripts/initramfs.sh', () => {
  it('writes the same bytes twice: init and the given files, sorted, owned by root, mtime 0', () => {
    const w = work!.path;
    const data = join(w, 'data.txt');
    writeFileSync(data, 'hello\n');
    chmodSync(data, 0o600);
    const a = buildInitramfs(join(w, 'a.cpio'), stage1, {
      '/rootfs.sqsh': join(w, 'good.sqsh'),
      '/etc/x': data,
    });
    // host details that must not leak: times, modes, the output's location
    utimesSync(data, new Date(), new Date());
    chmodSync(data, 0o640);
    const b = buildInitramfs(join(w, 'other/b.cpio'), stage1, {
      '/etc/x': data,
      '/rootfs.sqsh': join(w, 'good.sqsh'),
    });
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
    expect(existsSync(`${a}.tmp`)).toBe(false);

    const listed = execFileSync('cpio', ['-t', '--quiet'], { input: readFileSync(a), encoding: 'utf8' });
    expect(listed).toBe('etc\netc/x\ninit\nrootfs.sqsh\n');
    expect(readNewc(readFileSync(a))).toEqual([
      { name: 'etc', mode: 0o40755, uid: 0, gid: 0, mtime: 0 },
      { name: 'etc/x', mode: 0o100644, uid: 0, gid: 0, mtime: 0 },
      { name: 'init', mode: 0o100755, uid: 0, gid: 0, mtime: 0 },
      { name: 'rootfs.sqsh', mode: 0o100644, uid: 0, gid: 0, mtime: 0 },
    ]);
  });

  it('takes SOURCE_DATE_EPOCH for mtimes and compresses with zstd when asked', () => {
    const w = work!.path;
    const plain = buildInitramfs(join(w, 'e.cpio'), stage1, {}, { SOURCE_DATE_EPOCH: '1700000000' });
    expect(readNewc(readFileSync(plain))).toEqual([
      { name: 'init', mode: 0o100755, uid: 0, gid: 0, mtime: 1700000000 },
    ]);
    const z = buildInitramfs(
      join(w, 'e.cpio.zst'),
      stage1,
      {},
      { SOURCE_DATE_EPOCH: '1700000000', INITRAMFS_COMPRESS: 'zstd' },
    );
    expect(readFileSync(z).subarray(0, 4)).toEqual(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]));
    expect(execFileSync('zstd', ['-d', '-c', z]).equals(readFileSync(plain))).toBe(true);
  });
});
