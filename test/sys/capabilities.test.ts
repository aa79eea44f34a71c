import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { capLauncher, defaultCapabilityLauncher } from '../../src/machined/services/cap-launcher.js';
import {
  CAP_DATA_SIZE,
  CAP_HEADER_SIZE,
  CAPABILITIES,
  CapabilityError,
  capabilityName,
  capabilityNumber,
  capabilityNumbers,
  capget,
  decodeCapData,
  encodeCapData,
  encodeCapHeader,
  inBoundingSet,
  LINUX_CAPABILITY_VERSION_3,
  lastCap,
  parseStatusCaps,
} from '../../src/sys/capabilities.js';
import { requireRoot, runSnippet, sys } from './child.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** run runs argv to its end and collects its output (waits on the exit event, never a timer). */
function run(argv: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const c = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(c);
  let stdout = '';
  let stderr = '';
  c.stdout.on('data', (b: Buffer) => {
    stdout += b.toString();
  });
  c.stderr.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  return new Promise((resolve, reject) => {
    c.once('error', reject);
    c.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const bit = (name: string) => 1n << BigInt(capabilityNumber(name)!);

describe('capability names', () => {
  it('numbers the capabilities as the kernel does', () => {
    expect(CAPABILITIES).toHaveLength(41);
    expect(capabilityNumber('CAP_CHOWN')).toBe(0);
    expect(capabilityNumber('CAP_SETPCAP')).toBe(8);
    expect(capabilityNumber('CAP_NET_RAW')).toBe(13);
    expect(capabilityNumber('CAP_SYS_ADMIN')).toBe(21);
    expect(capabilityNumber('CAP_SYS_RESOURCE')).toBe(24);
    expect(capabilityNumber('CAP_AUDIT_READ')).toBe(37);
    expect(capabilityNumber('CAP_CHECKPOINT_RESTORE')).toBe(40);
    for (const [i, n] of CAPABILITIES.entries()) {
      expect(capabilityNumber(n)).toBe(i);
      expect(capabilityName(i)).toBe(n);
    }
  });

  it('accepts the short lowercase spelling and rejects unknown names by name', () => {
    expect(capabilityNumber('sys_admin')).toBe(21);
    expect(capabilityNumber('CAP_NOPE')).toBeUndefined();
    expect(() => capabilityNumbers(['CAP_NET_RAW', 'CAP_NOPE'])).toThrow(CapabilityError);
    expect(() => capabilityNumbers(['CAP_NET_RAW', 'CAP_NOPE'])).toThrow('unknown capability "CAP_NOPE"');
  });

  it('covers every capability the running kernel knows', () => {
    expect(lastCap()).toBeLessThan(CAPABILITIES.length);
  });
});

describe('capget/capset structs', () => {
  it('lays out the v3 header: u32 version, int pid', () => {
    expect(CAP_HEADER_SIZE).toBe(8);
    const h = encodeCapHeader(1234);
    expect(h.readUInt32LE(0)).toBe(LINUX_CAPABILITY_VERSION_3);
    expect(LINUX_CAPABILITY_VERSION_3).toBe(0x20080522);
    expect(h.readInt32LE(4)).toBe(1234);
    expect([...encodeCapHeader()]).toEqual([0x22, 0x05, 0x08, 0x20, 0, 0, 0, 0]);
  });

  it('splits 64-bit sets over two data structs of effective, permitted, inheritable', () => {
    expect(CAP_DATA_SIZE).toBe(12);
    const sets = { effective: 0x1_0000_0002n, permitted: 0x3_0000_0004n, inheritable: 0x5_0000_0008n };
    const b = encodeCapData(sets);
    expect(b).toHaveLength(24);
    expect([0, 4, 8, 12, 16, 20].map((o) => b.readUInt32LE(o))).toEqual([2, 4, 8, 1, 3, 5]);
    expect(decodeCapData(b)).toEqual(sets);
  });

  it('capget agrees with /proc/self/status', () => {
    const status = parseStatusCaps(readFileSync('/proc/self/status', 'utf8'));
    const sets = capget();
    expect(sets.effective).toBe(status.effective);
    expect(sets.permitted).toBe(status.permitted);
    expect(sets.inheritable).toBe(status.inheritable);
    expect(inBoundingSet(21)).toBe((status.bounding & bit('CAP_SYS_ADMIN')) !== 0n);
  });
});

describe('capability launcher', () => {
  it('execs the program with CAP_NET_RAW and CAP_SYS_ADMIN dropped from every set, others kept', async () => {
    requireRoot('dropping capabilities');
    const parent = parseStatusCaps(readFileSync('/proc/self/status', 'utf8'));
    const gone = bit('CAP_NET_RAW') | bit('CAP_SYS_ADMIN');
    expect(parent.bounding & gone, 'the test needs both in the bounding set to begin with').toBe(gone);
    const argv = defaultCapabilityLauncher(
      ['/bin/cat', '/proc/self/status'],
      ['CAP_NET_RAW', 'CAP_SYS_ADMIN'],
    );
    const r = await run(argv);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const child = parseStatusCaps(r.stdout);
    expect(r.stdout).toMatch(/^Name:\s+cat$/m);
    for (const set of [child.bounding, child.effective, child.permitted, child.inheritable, child.ambient])
      expect(set & gone).toBe(0n);
    expect(child.bounding).toBe(parent.bounding & ~gone);
    // root regains after exec exactly what the bounding set still allows
    expect(child.effective).toBe(parent.bounding & ~gone);
    expect(child.permitted).toBe(parent.bounding & ~gone);
    expect(r.stdout).toMatch(/^NoNewPrivs:\s+0$/m);
  });

  it('clears a dropped capability from the ambient set it inherited, keeping the rest', () => {
    requireRoot('raising ambient capabilities');
    // a parent with CAP_NET_RAW and CAP_KILL ambient execs the launcher, which drops only CAP_NET_RAW
    const argv = defaultCapabilityLauncher(['/bin/cat', '/proc/self/status'], ['CAP_NET_RAW']);
    const r = runSnippet(`
      import { capget, capset, raiseAmbient } from ${JSON.stringify(sys('capabilities.ts'))};
      import { execve } from ${JSON.stringify(sys('exec.ts'))};
      const c = capget();
      capset({ ...c, inheritable: c.inheritable | ${bit('CAP_NET_RAW') | bit('CAP_KILL')}n });
      raiseAmbient(${capabilityNumber('CAP_NET_RAW')});
      raiseAmbient(${capabilityNumber('CAP_KILL')});
      execve(${JSON.stringify(argv[0])}, ${JSON.stringify(argv)});
    `);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const child = parseStatusCaps(r.stdout);
    expect(child.ambient & bit('CAP_NET_RAW')).toBe(0n);
    expect(child.ambient & bit('CAP_KILL')).toBe(bit('CAP_KILL'));
    expect(child.inheritable & bit('CAP_NET_RAW')).toBe(0n);
    expect(child.bounding & bit('CAP_NET_RAW')).toBe(0n);
  });

  it('sets no_new_privs when asked', async () => {
    const argv = capLauncher({ noNewPrivs: true })(['/bin/cat', '/proc/self/status'], ['CAP_NET_RAW']);
    const r = await run(argv);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^NoNewPrivs:\s+1$/m);
    expect(parseStatusCaps(r.stdout).bounding & bit('CAP_NET_RAW')).toBe(0n);
  });

  it('finds a bare program name through PATH, as spawn does', async () => {
    const r = await run(defaultCapabilityLauncher(['cat', '/proc/self/status'], ['CAP_SYS_ADMIN']));
    expect(r.code).toBe(0);
    expect(parseStatusCaps(r.stdout).effective & bit('CAP_SYS_ADMIN')).toBe(0n);
  });

  it('refuses an unknown capability name before spawning, naming it', () => {
    expect(() => defaultCapabilityLauncher(['/bin/true'], ['CAP_SYS_ADMIN', 'CAP_FLY'])).toThrow(
      'unknown capability "CAP_FLY"',
    );
  });

  it('fails with the unknown name when the launcher itself is handed one, and never execs', async () => {
    const argv = defaultCapabilityLauncher(['/bin/echo', 'ran'], ['CAP_NET_RAW']);
    const at = argv.indexOf('--') - 1;
    const bad = [...argv.slice(0, at), JSON.stringify({ drop: ['CAP_FLY'] }), ...argv.slice(at + 1)];
    const r = await run(bad);
    expect(r.code).toBe(127);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('cap-launcher: unknown capability "CAP_FLY"\n');
  });
});
