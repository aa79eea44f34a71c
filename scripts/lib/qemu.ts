// A Keel node in QEMU under TCG: the command line, and a handle on a running VM (serial console lines,
// the monitor, the end). `make run`, the end-to-end tests and the boot benchmark all start VMs here.
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const OVMF_CODE = '/usr/share/OVMF/OVMF_CODE_4M.fd';
export const OVMF_VARS = '/usr/share/OVMF/OVMF_VARS_4M.fd';

export type BootMedium =
  | { readonly kind: 'iso'; readonly path: string }
  /** a raw disk; its writes are thrown away at the end unless `persistent` (an installed node's disk) */
  | { readonly kind: 'disk'; readonly path: string; readonly persistent?: boolean }
  | { readonly kind: 'kernel'; readonly kernel: string; readonly initrd: string; readonly cmdline: string };

/**
 * The NIC's backend. `user` is QEMU's own network (slirp), whose DHCP server cannot be turned off; `tap`
 * attaches the NIC to an existing tap device in a network namespace, whose other end holds whatever the
 * caller put there (no DHCP server unless it starts one). QEMU then runs inside that namespace.
 */
export type VmNetwork =
  | { readonly kind: 'user' }
  | { readonly kind: 'tap'; readonly netns: string; readonly ifname: string };

export interface VmOptions {
  readonly boot: BootMedium;
  /** default `user` */
  readonly network?: VmNetwork;
  /** the NIC's MAC; QEMU's default is the same for every VM, so VMs sharing a network each need one */
  readonly mac?: string;
  readonly firmware?: 'bios' | 'uefi';
  readonly memoryMiB?: number;
  readonly cpus?: number;
  /** the host port forwarded to the node's API port (50000); none when absent (user network only) */
  readonly apiPort?: number;
  /** the guest address the API port is forwarded to; default the first address QEMU's DHCP hands out */
  readonly apiGuestAddress?: string;
  /** more host ports forwarded to guest ports (the Kubernetes API server's 6443), to the same address */
  readonly forwards?: readonly { readonly host: number; readonly guest: number }[];
  /** an extra virtio disk (raw), e.g. the disk a later install writes to */
  readonly dataDisk?: string;
  /** told every console line as it arrives (make run shows them) */
  readonly onLine?: (line: string) => void;
  /** told every line QEMU itself writes to stderr (its errors and warnings), which stay off the console */
  readonly onStderr?: (line: string) => void;
  /** QEMU exits on a guest reboot instead of resetting (a boot measured once) */
  readonly noReboot?: boolean;
  /**
   * Count the guest's instructions (QEMU's icount, one CPU): its clock then advances
   * ICOUNT_NS_PER_INSTRUCTION per instruction run and jumps over idle time to the next timer, so the
   * kernel's timestamps measure the guest's own work, whatever the host's speed. Needs `cpus: 1`.
   */
  readonly countInstructions?: boolean;
}

/** the CPU every Keel VM gets (why each feature is off: qemuArgs) */
export const CPU_MODEL = 'max,vendor=GenuineIntel,-avx,-avx2,-fma,-f16c,-erms,-fsrm';

/** the guest clock per instruction under countInstructions (icount shift 3) */
export const ICOUNT_NS_PER_INSTRUCTION = 8;

export interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface Vm {
  readonly pid: number;
  /** every serial console line so far */
  readonly lines: readonly string[];
  /** every line QEMU itself wrote to stderr so far: why it refused to start, when it did */
  readonly stderr: readonly string[];
  /** waitForLine resolves with the first line (from `from` on) matching `re`; rejects if QEMU ends first */
  waitForLine(re: RegExp, opts?: { readonly timeoutMs?: number; readonly from?: number }): Promise<string>;
  /** type writes to the serial console, as a user at the console would */
  type(text: string): void;
  /** monitor runs one human-monitor command (e.g. `sendkey alt-sysrq-i`, `info jit`) and returns its reply */
  monitor(command: string): Promise<string>;
  /** resolves when QEMU has exited */
  readonly ended: Promise<Ended>;
  kill(): void;
}

/** qemuArgs is the command line; pure, so what a VM runs is testable and printable. */
export function qemuArgs(
  opts: VmOptions,
  files: { readonly monitor: string; readonly vars?: string },
): string[] {
  const counting = opts.countInstructions === true;
  // with a second CPU under icount the guest never finished bringing it up (QEMU 7.2)
  if (counting && opts.cpus !== 1) throw new Error('counting instructions needs a VM of one CPU (cpus: 1)');
  const args = [
    '-accel',
    // icount runs the CPUs in one thread, taking turns
    counting ? 'tcg,thread=single' : 'tcg',
    ...(counting ? ['-icount', `shift=${Math.log2(ICOUNT_NS_PER_INSTRUCTION)},sleep=off`] : []),
    // TCG only here; `max` gives the guest RDRAND, so Node's start does not wait on the kernel CRNG.
    // Under TCG `max` calls itself AMD but lacks the invariant-TSC bit, and Linux trusts no TSC on an
    // AMD machine of several CPUs without it: it falls back to the HPET, whose reads are emulated MMIO
    // and, outside the vDSO, system calls (Node reads the clock constantly). As GenuineIntel the guest
    // runs its TSC synchronisation check between the CPUs, which passes, and keeps clock reads in user
    // space: about 0.6 s off a boot to the API (interleaved A/B boots). Without AVX (and FMA and F16C,
    // which build on it): glibc, V8, OpenSSL and simdutf choose their code by CPUID, and under TCG the
    // SSE code they fall back to runs faster: about 0.25 s off a boot to the API, the floor unchanged
    // (interleaved A/B boots, 4 and 4). Without ERMS and FSRM: the kernel's page clearing and copies and
    // glibc's large memset/memcpy then use rep stosq/movsq or SSE loops instead of rep stosb/movsb,
    // which TCG runs one byte per step: 9.5 % fewer guest instructions from exec to the API (counted),
    // QEMU's CPU time to the first answer -11 % (lower in 6 of 6 interleaved pairs), the answer ~0.8 s
    // sooner in a slow period of the host (5 of 6 pairs).
    '-cpu',
    CPU_MODEL,
    '-machine',
    'q35',
    '-smp',
    String(opts.cpus ?? 2),
    '-m',
    String(opts.memoryMiB ?? 2048),
    '-device',
    'virtio-rng-pci',
    '-monitor',
    `unix:${files.monitor},server,nowait`,
  ];
  args.push('-display', 'none', '-serial', 'stdio');
  if (opts.noReboot) args.push('-no-reboot');
  if (opts.firmware === 'uefi') {
    if (!files.vars) throw new Error('UEFI needs a writable copy of the OVMF variables');
    args.push(
      '-drive',
      `if=pflash,format=raw,readonly=on,file=${OVMF_CODE}`,
      '-drive',
      `if=pflash,format=raw,file=${files.vars}`,
    );
  }
  const b = opts.boot;
  if (b.kind === 'iso') args.push('-drive', `file=${b.path},media=cdrom,readonly=on`, '-boot', 'd');
  else if (b.kind === 'disk')
    args.push('-drive', `file=${b.path},format=raw,if=virtio${b.persistent ? '' : ',snapshot=on'}`);
  else args.push('-kernel', b.kernel, '-initrd', b.initrd, '-append', b.cmdline);
  if (opts.dataDisk) args.push('-drive', `file=${opts.dataDisk},format=raw,if=virtio`);
  const net = opts.network ?? { kind: 'user' };
  if (net.kind === 'tap') {
    // a tap has no host side to forward from: the caller reaches the guest inside the namespace
    if (opts.apiPort !== undefined || opts.forwards?.length)
      throw new Error('a tap network forwards no port (apiPort and forwards are for user)');
    args.push('-netdev', `tap,id=net0,ifname=${net.ifname},script=no,downscript=no`);
  } else {
    const ports = [
      ...(opts.apiPort === undefined ? [] : [{ host: opts.apiPort, guest: 50000 }]),
      ...(opts.forwards ?? []),
    ];
    const fwd = ports.map((p) => `,hostfwd=tcp:127.0.0.1:${p.host}-${opts.apiGuestAddress ?? ''}:${p.guest}`);
    args.push('-netdev', `user,id=net0${fwd.join('')}`);
  }
  args.push('-device', `virtio-net-pci,netdev=net0${opts.mac ? `,mac=${opts.mac}` : ''}`);
  return args;
}

/**
 * qemuCommand is the program and arguments startVm spawns; pure. On a tap network QEMU is started in the
 * tap's namespace: `ip netns exec` and `setpriv` each exec the next program in the same process, so the
 * child's pid, signals and exit status are QEMU's own. The parent-death signal ends QEMU with the process
 * that started it, so a crashed run leaves no QEMU holding its namespace.
 */
export function qemuCommand(
  opts: VmOptions,
  files: { readonly monitor: string; readonly vars?: string },
): { readonly file: string; readonly args: readonly string[] } {
  const args = qemuArgs(opts, files);
  const net = opts.network ?? { kind: 'user' };
  if (net.kind === 'user') return { file: QEMU, args };
  return { file: 'ip', args: ['netns', 'exec', net.netns, 'setpriv', '--pdeathsig', 'KILL', QEMU, ...args] };
}

const QEMU = 'qemu-system-x86_64';

/** startVm boots a VM; the caller must kill() it (tests: in afterEach/finally). */
export function startVm(opts: VmOptions): Vm {
  for (const f of [opts.boot.kind === 'kernel' ? opts.boot.kernel : opts.boot.path])
    if (!existsSync(f)) throw new Error(`boot medium ${f} does not exist (build it with: make image)`);
  const dir = mkdtempSync(join(tmpdir(), 'keel-vm-'));
  const monitorPath = join(dir, 'monitor.sock');
  let vars: string | undefined;
  if (opts.firmware === 'uefi') {
    vars = join(dir, 'OVMF_VARS.fd');
    copyFileSync(OVMF_VARS, vars);
  }
  const cmd = qemuCommand(opts, { monitor: monitorPath, vars });
  const child: ChildProcess = spawn(cmd.file, cmd.args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const stderr: string[] = [];
  const waiters = new Set<() => void>();
  const readLines = (stream: NodeJS.ReadableStream | null, into: string[], tell?: (line: string) => void) => {
    let partial = '';
    const take = (parts: string[]) => {
      // the kernel's console writes \r\n; ANSI sequences from firmware are dropped so matching stays simple
      for (const p of parts) {
        const line = p.replace(ANSI_ESCAPE, '').replace(/\r/g, '');
        into.push(line);
        tell?.(line);
      }
      for (const w of waiters) w();
    };
    stream?.on('data', (chunk: Buffer) => {
      const parts = (partial + chunk.toString('utf8')).split(/\r?\n/);
      partial = parts.pop() ?? '';
      take(parts);
    });
    // a last line without its newline still counts
    stream?.on('end', () => {
      if (partial) take([partial]);
    });
  };
  readLines(child.stdout, lines, opts.onLine);
  readLines(child.stderr, stderr, opts.onStderr);
  // set before the waiters are told, so a waitForLine pending at the end rejects now, not at its timeout
  let exited = false;
  const ended = new Promise<Ended>((resolve) => {
    const end = (e: Ended) => {
      if (exited) return;
      exited = true;
      rmSync(dir, { recursive: true, force: true });
      resolve(e);
      for (const w of waiters) w();
    };
    // 'close' rather than 'exit': QEMU's last words on stderr are read by then
    child.once('close', (code, signal) => end({ code, signal }));
    // no QEMU to run (its 'close' follows): say what to install, and end as a shell would (127)
    child.once('error', (e) => {
      const group = cmd.file === QEMU ? 'qemu' : 'net';
      const line = `${cmd.file} could not be started (${e.message}); install it: scripts/host-packages.sh ${group}`;
      stderr.push(line);
      opts.onStderr?.(line);
      end({ code: 127, signal: null });
    });
  });

  const waitForLine = (re: RegExp, o: { timeoutMs?: number; from?: number } = {}) =>
    new Promise<string>((resolve, reject) => {
      const timeoutMs = o.timeoutMs ?? 300_000;
      let timer: NodeJS.Timeout | undefined;
      const check = () => {
        const hit = lines.slice(o.from ?? 0).find((l) => re.test(l));
        if (hit !== undefined || exited) {
          waiters.delete(check);
          clearTimeout(timer);
          if (hit !== undefined) resolve(hit);
          else
            reject(
              new Error(
                `QEMU ended before a console line matched ${re}; last lines:\n${tail(lines)}${qemuSaid(stderr)}`,
              ),
            );
        }
      };
      timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(`no console line matched ${re} within ${timeoutMs} ms; last lines:\n${tail(lines)}`),
        );
      }, timeoutMs);
      waiters.add(check);
      check();
    });

  // The monitor greets with a prompt; the command goes after it, and its reply ends at the next one.
  const monitor = (command: string) =>
    new Promise<string>((resolve, reject) => {
      const sock = createConnection(monitorPath);
      let received = '';
      let sent = false;
      const timer = setTimeout(() => {
        sock.destroy();
        reject(new Error(`QEMU monitor: no reply to "${command}" within ${MONITOR_REPLY_MS} ms`));
      }, MONITOR_REPLY_MS);
      sock.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      // QEMU gone before its reply: say so now rather than at the timeout (a settled promise ignores it)
      sock.once('close', () => {
        clearTimeout(timer);
        reject(new Error(`QEMU monitor: closed before its reply to "${command}"`));
      });
      sock.on('data', (chunk: Buffer) => {
        received += chunk.toString('utf8');
        if (!received.replace(ANSI_ESCAPE, '').includes(MONITOR_PROMPT)) return;
        if (!sent) {
          sent = true;
          received = '';
          sock.write(`${command}\n`);
          return;
        }
        clearTimeout(timer);
        sock.end();
        resolve(monitorReply(received));
      });
    });

  return {
    pid: child.pid ?? -1,
    lines,
    stderr,
    waitForLine,
    type: (text) => {
      child.stdin?.write(text);
    },
    monitor,
    ended,
    kill: () => {
      if (!exited) child.kill('SIGKILL');
    },
  };
}

// built from a string so the escape character is spelled out once
const ANSI_ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g');

const MONITOR_PROMPT = '(qemu) ';
/** how long a monitor command may take to answer (`info jit` on a busy host included) */
const MONITOR_REPLY_MS = 30_000;

/**
 * monitorReply is what the human monitor printed for a command, from the text it sent once the command
 * was written up to its next prompt. That text starts with the command's echo, which the monitor redraws
 * a character at a time up to its newline: the echo, terminal sequences and the prompt are taken out.
 */
export function monitorReply(raw: string): string {
  let text = raw.replace(ANSI_ESCAPE, '').replace(/\r/g, '');
  const prompt = text.lastIndexOf(MONITOR_PROMPT);
  if (prompt >= 0) text = text.slice(0, prompt);
  const echoEnd = text.indexOf('\n');
  return echoEnd < 0 ? '' : text.slice(echoEnd + 1).trimEnd();
}

/** translatedBlocks reads the number of translated blocks from `info jit` (QEMU's TCG only). */
export function translatedBlocks(infoJit: string): number {
  const m = /^TB count\s+(\d+)/m.exec(infoJit);
  if (!m) throw new Error(`QEMU's "info jit" has no TB count:\n${infoJit}`);
  return Number(m[1]);
}

const tail = (lines: readonly string[]) => lines.slice(-25).join('\n');
const qemuSaid = (stderr: readonly string[]) => (stderr.length ? `\nQEMU's stderr:\n${tail(stderr)}` : '');
