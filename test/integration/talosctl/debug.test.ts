// talosctl debug against a container-mode node whose components layer ships the toolbox image: the stock
// talosctl pulls (answered from the node's own images), then runs a privileged container attached to the
// call, its stdin piped in and its exit code passed back. A missing image and a reader are refused clearly.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentDir } from '../../etcd/fixtures.js';
import { cleanup, freePort, type NodeProcess, spawnNode, tempStateDir } from '../../machined/node/harness.js';
import { componentsTree } from '../machined/services/containerd-fixtures.js';
import { killTalosctls, type Run, talosctl, talosctlPath } from './talosctl.js';

let bin: string;
let dir: string;
let node: NodeProcess;
let talosconfig: string;
let toolbox: string;
let stateDir: string;
const debugs = new Set<ChildProcess>();

/** debug runs `talosctl debug` with `input` on its stdin (a pipe: talosctl asks for no terminal). */
function debug(input: string, args: string[], config = talosconfig): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(bin, ['-e', node.address, '-n', '127.0.0.1', 'debug', ...args], {
      cwd: dir,
      env: { ...process.env, HOME: dir, TALOSCONFIG: config },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    debugs.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, 60_000);
    child.once('close', (code) => {
      debugs.delete(child);
      clearTimeout(timer);
      resolve({ code, stdout, stderr, output: `${stdout}\n${stderr}`, timedOut });
    });
    child.stdin.end(input);
  });
}

beforeAll(async () => {
  bin = talosctlPath();
  dir = mkdtempSync(join(tmpdir(), 'keel-debug-'));
  // the components layer as a directory: containerd, its shim, ctr and runc, and the toolbox archive
  const layer = join(dir, 'layer');
  componentsTree(layer);
  const box = componentDir('toolbox');
  toolbox = (JSON.parse(readFileSync(join(box, 'image.json'), 'utf8')) as { ref: string }).ref;
  mkdirSync(join(layer, 'usr/share/keel/images'), { recursive: true });
  copyFileSync(join(box, 'toolbox.tar'), join(layer, 'usr/share/keel/images/toolbox.tar'));
  stateDir = tempStateDir();
  node = await spawnNode(stateDir, await freePort(), ['--components', layer]);
  await node.waitForLine(/server certificate fingerprint: /);
  const gen = await talosctl(bin, ['gen', 'config', 'keel-debug', 'https://127.0.0.1:6443', '-o', dir], {
    cwd: dir,
  });
  expect(gen.code, gen.output).toBe(0);
  talosconfig = join(dir, 'talosconfig');
  const applied = await talosctl(
    bin,
    [
      'apply-config',
      '--insecure',
      '-n',
      node.address,
      '-f',
      join(dir, 'controlplane.yaml'),
      // a container node listens on its host's network: KubePrism on a free port, not the fixed 7445
      '-p',
      JSON.stringify({ machine: { features: { kubePrism: { port: await freePort() } } } }),
    ],
    { cwd: dir },
  );
  expect(applied.code, applied.output).toBe(0);
  // the toolbox is imported once containerd is up: wait until the node lists it
  const deadline = Date.now() + 180_000;
  for (;;) {
    const r = await talosctl(
      bin,
      ['-e', node.address, '-n', '127.0.0.1', 'image', 'list', '--namespace', 'system'],
      {
        talosconfig,
        cwd: dir,
      },
    );
    if (r.stdout.includes(toolbox)) break;
    if (Date.now() > deadline)
      throw new Error(`the toolbox never appeared:\n${r.output}\n${node.lines.slice(-20).join('\n')}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}, 30 * 60_000);

afterAll(async () => {
  killTalosctls();
  for (const c of debugs) c.kill('SIGKILL');
  // a container still running when the node goes would keep its shim and mounts: remove them first
  if (node && stateDir) {
    const ctr = [
      join(dir, 'layer/usr/bin/ctr'),
      '-a',
      join(stateDir, 'run/containerd/containerd.sock'),
      '-n',
      'system',
    ];
    try {
      for (const id of execFileSync(ctr[0]!, [...ctr.slice(1), 'tasks', 'ls', '-q'], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean))
        execFileSync(ctr[0]!, [...ctr.slice(1), 'tasks', 'delete', '-f', id], { stdio: 'ignore' });
    } catch {
      // containerd never came up
    }
  }
  await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe('talosctl debug', () => {
  it('runs a shell from the shipped toolbox: stdin in, stdout out, the exit code back', async () => {
    const r = await debug('echo hello; exit 3\n', [toolbox, '--namespace', 'system', '--args', '/bin/sh']);
    expect(r.timedOut, r.output).toBe(false);
    expect(r.stdout).toContain('hello');
    expect(r.code, r.output).not.toBe(0);
    expect(r.stderr).toContain('container exited with code 3');
  });

  it('shares the host’s PID and network namespaces and mounts its / at /host', async () => {
    const r = await debug(
      `test -d /proc/${node.child.pid} && echo sees-machined; ls /host >/dev/null && echo host-root\n`,
      [toolbox, '--namespace', 'system', '--args', '/bin/sh'],
    );
    expect(r.code, r.output).toBe(0);
    expect(r.stdout).toContain('sees-machined');
    expect(r.stdout).toContain('host-root');
  });

  it('a missing image is refused: nothing is pulled', async () => {
    const r = await debug('', ['keel.dev/nope:v1', '--namespace', 'system', '--args', '/bin/sh']);
    expect(r.code, r.output).not.toBe(0);
    expect(r.output).toContain('code = NotFound');
    expect(r.output).toContain('Keel pulls no images at run time');
  });

  it('a reader is refused, as upstream: debug containers are for admins', async () => {
    const reader = join(dir, 'reader-config');
    const made = await talosctl(
      bin,
      ['-e', node.address, '-n', '127.0.0.1', 'config', 'new', '--roles', 'os:reader', reader],
      { talosconfig, cwd: dir },
    );
    expect(made.code, made.output).toBe(0);
    const r = await debug('', [toolbox, '--namespace', 'system', '--args', '/bin/sh'], reader);
    expect(r.code, r.output).not.toBe(0);
    expect(r.output).toContain('PermissionDenied');
  });
});
