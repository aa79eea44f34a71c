// `make run` around QEMU (#28): a busy API port fails at once, before anything is built; QEMU's refusal
// ends it with QEMU's code and words; the node's apply-config hint is shown as it works from the host.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/free-port.js';
import { RUN_DISK_BYTES } from '../../scripts/lib/run-disk.js';
import { addPartition, createTable, PARTITION_TYPE, writeGpt } from '../../src/sys/block/gpt/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Result {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** runCommand runs a command from the repository's root, killed after limitMs so a hang fails the test. */
function runCommand(
  cmd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  limitMs = 60_000,
) {
  return new Promise<Result>((resolve, reject) => {
    const started = performance.now();
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    // the whole group: make's children too
    const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), limitMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** runScript starts scripts/run.ts as make's recipe does. */
const runScript = (args: readonly string[], env?: NodeJS.ProcessEnv) =>
  runCommand(process.execPath, ['--import', 'tsx', 'scripts/run.ts', ...args], env);

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'keel-run-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function occupiedPort(): Promise<number> {
  const port = await freePort();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  return port;
}

/** fakeQemu puts a qemu-system-x86_64 first on PATH that runs `body` (sh); it touches `started` first. */
function fakeQemu(body: string): { env: NodeJS.ProcessEnv; started: string } {
  const dir = tempDir();
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const started = join(dir, 'started');
  writeFileSync(join(bin, 'qemu-system-x86_64'), `#!/bin/sh\ntouch '${started}'\n${body}\n`);
  chmodSync(join(bin, 'qemu-system-x86_64'), 0o755);
  return { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, started };
}

function isoFile(): string {
  const iso = join(tempDir(), 'keel.iso');
  writeFileSync(iso, '');
  return iso;
}

describe('make run', () => {
  it('exits non-zero within 10 s on a busy port, naming PORT=, before building or starting QEMU', async () => {
    const port = await occupiedPort();
    const qemu = fakeQemu('exit 0');
    const r = await runCommand(
      'make',
      ['--no-print-directory', 'run', `PORT=${port}`, `K8S_PORT=${await freePort()}`],
      qemu.env,
      20_000,
    );
    expect(r.code, r.stderr).not.toBe(0);
    expect(r.ms).toBeLessThan(10_000);
    expect(r.stderr).toContain(`run: 127.0.0.1:${port} is in use; pick another with make run PORT=`);
    // the check came first: no install, no image step, no QEMU
    expect(r.stdout).toBe('');
    expect(existsSync(qemu.started)).toBe(false);
  });
});

describe('scripts/run.ts', () => {
  it('refuses a busy port before it starts QEMU', async () => {
    const port = await occupiedPort();
    const qemu = fakeQemu('exit 0');
    const r = await runScript(
      ['--iso', isoFile(), '--port', String(port), '--k8s-port', String(await freePort())],
      qemu.env,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`127\\.0\\.0\\.1:${port} is in use; pick another with make run PORT=\\d+`),
    );
    expect(existsSync(qemu.started)).toBe(false);
  });

  it('refuses a busy Kubernetes port, naming K8S_PORT=, before it starts QEMU', async () => {
    const k8s = await occupiedPort();
    const qemu = fakeQemu('exit 0');
    const r = await runScript(
      ['--iso', isoFile(), '--port', String(await freePort()), '--k8s-port', String(k8s)],
      qemu.env,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`127\\.0\\.0\\.1:${k8s} is in use; pick another with make run K8S_PORT=\\d+`),
    );
    expect(existsSync(qemu.started)).toBe(false);
  });

  it("ends with QEMU's exit code and shows QEMU's own message, at once though a config waits", async () => {
    const qemu = fakeQemu("echo 'qemu-system-x86_64: -m 2048: refused for the test' >&2\nexit 3");
    const config = join(tempDir(), 'controlplane.yaml');
    const r = await runScript(
      [
        '--iso',
        isoFile(),
        '--port',
        String(await freePort()),
        '--k8s-port',
        String(await freePort()),
        '--config',
        config,
      ],
      qemu.env,
    );
    // not held until the wait for maintenance mode times out (300 s; the test's limit kills it at 60 s)
    expect(r.code).toBe(3);
    expect(r.stderr).not.toContain('ended before a console line matched');
    expect(r.stderr).toContain('qemu-system-x86_64: -m 2048: refused for the test');
    expect(r.stderr).toContain('run: QEMU exited with code 3');
  });

  it('passes on what the real QEMU says when it refuses the boot medium', async () => {
    const notAFile = tempDir(); // exists, so it reaches QEMU, which wants a regular file
    const r = await runScript([
      '--iso',
      notAFile,
      '--port',
      String(await freePort()),
      '--k8s-port',
      String(await freePort()),
    ]);
    expect(r.stderr, 'needs QEMU: scripts/host-packages.sh qemu').not.toContain('could not be started');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^qemu-system-x86_64: -drive file=${notAFile}.*regular file`, 'm'));
  });

  it('ends with 127 and says what to install when there is no QEMU', async () => {
    const empty = tempDir();
    const r = await runScript(
      ['--iso', isoFile(), '--port', String(await freePort()), '--k8s-port', String(await freePort())],
      {
        ...process.env,
        PATH: empty,
      },
    );
    expect(r.code).toBe(127);
    expect(r.stderr).toContain('qemu-system-x86_64 could not be started');
    expect(r.stderr).toContain('scripts/host-packages.sh qemu');
  });

  it('installs to DISK from the ISO, then boots the disk; an installed DISK boots at once', async () => {
    const dir = tempDir();
    const calls = join(dir, 'calls');
    // the ISO's node installs itself and reboots, which ends a -no-reboot QEMU with 0; the disk's node
    // powers off
    const qemu = fakeQemu(
      [
        `echo "$*" >> '${calls}'`,
        'case "$*" in *media=cdrom*) echo \'[machined] installed onto /dev/vda: EFI, META\' ;; esac',
        'exit 0',
      ].join('\n'),
    );
    const disk = join(dir, 'node.raw');
    const r = await runScript(
      [
        '--iso',
        isoFile(),
        '--port',
        String(await freePort()),
        '--k8s-port',
        String(await freePort()),
        '--disk',
        disk,
      ],
      qemu.env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(disk).size).toBe(RUN_DISK_BYTES);
    const [first, second, ...rest] = readFileSync(calls, 'utf8').trim().split('\n');
    expect(rest).toEqual([]);
    expect(first).toMatch(/media=cdrom/);
    expect(first).toContain(`-no-reboot`);
    expect(first).toContain(`-drive file=${disk},format=raw,if=virtio`);
    expect(second).not.toMatch(/media=cdrom|-no-reboot/);
    expect(second).toContain(`-drive file=${disk},format=raw,if=virtio`);
    expect(second).not.toContain('snapshot=on');
    for (const args of [first, second]) expect(args).toContain('if=pflash'); // UEFI both times
    expect(r.stdout).toContain(`run: the node installed itself on ${disk}; booting from it`);

    // a disk the installer wrote (its GPT names EFI and META) boots straight away
    const installed = join(dir, 'installed.raw');
    writeFileSync(installed, '');
    truncateSync(installed, 2 ** 30);
    const fd = openSync(installed, 'r+');
    try {
      let t = createTable({ diskSectors: BigInt(2 ** 21), sectorSize: 512 });
      for (const name of ['EFI', 'META'])
        t = addPartition(t, { name, type: PARTITION_TYPE.linuxFilesystem, size: 2n ** 20n }).table;
      await writeGpt(fd, t);
    } finally {
      closeSync(fd);
    }
    rmSync(calls);
    const again = await runScript(
      [
        '--iso',
        isoFile(),
        '--port',
        String(await freePort()),
        '--k8s-port',
        String(await freePort()),
        '--disk',
        installed,
      ],
      qemu.env,
    );
    expect(again.code, again.stderr).toBe(0);
    const only = readFileSync(calls, 'utf8').trim().split('\n');
    expect(only).toHaveLength(1);
    expect(only[0]).not.toMatch(/media=cdrom/);
    expect(only[0]).toContain(`-drive file=${installed},format=raw,if=virtio`);
    expect(again.stdout).toContain(`run: booting the node installed on ${installed}`);
  });

  it("shows the node's apply-config hint with the forwarded port, as it works from the host", async () => {
    const port = await freePort();
    const qemu = fakeQemu(
      [
        "echo '[keel] node addresses: 10.0.2.15'",
        "echo '[keel] apply a config: keelctl apply-config --insecure --nodes 10.0.2.15 --file controlplane.yaml'",
      ].join('\n'),
    );
    const r = await runScript(
      ['--iso', isoFile(), '--port', String(port), '--k8s-port', String(await freePort())],
      qemu.env,
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const at = lines.indexOf(
      '[keel] apply a config: keelctl apply-config --insecure --nodes 10.0.2.15 --file controlplane.yaml',
    );
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toBe(
      `run: from this host: keelctl apply-config --insecure --nodes 127.0.0.1:${port} --file controlplane.yaml`,
    );
  });
});
