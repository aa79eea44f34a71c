// `make run`: boot the ISO in QEMU with the node's API forwarded to 127.0.0.1:<port> (and its Kubernetes
// API server's 6443 to 127.0.0.1:<k8s-port>), show its console, and (with --config) apply a machine
// config as soon as maintenance mode answers. Ends with QEMU's exit code, so a QEMU that refuses to start
// fails `make run` with its own message.
//   --config FILE   apply FILE with `keelctl apply-config --insecure`
//   --config gen    generate a single-node config and talosconfig in _out/run first
//   --disk FILE     a virtual disk (made when missing) to install to and, once installed, boot from
import { spawnSync } from 'node:child_process';
import { constants } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { hostHint } from './lib/host-hint.js';
import { parsePort, portProblem } from './lib/port-free.mjs';
import { type Ended, startVm, type Vm } from './lib/qemu.js';
import { runDisk } from './lib/run-disk.js';

const { values } = parseArgs({
  options: {
    iso: { type: 'string', default: '_out/keel.iso' },
    port: { type: 'string', default: '50000' },
    'k8s-port': { type: 'string', default: '6443' },
    config: { type: 'string' },
    memory: { type: 'string', default: '2048' },
    disk: { type: 'string' },
  },
  strict: true,
});
const fail = (message: string, code = 1): never => {
  process.stderr.write(`run: ${message}\n`);
  process.exit(code);
};
const port = parsePort(values.port) ?? fail(`--port ${values.port}: not a TCP port`, 2);
const k8sPort = parsePort(values['k8s-port']) ?? fail(`--k8s-port ${values['k8s-port']}: not a TCP port`, 2);
if (k8sPort === port) fail(`--k8s-port ${k8sPort} is --port too: give the two APIs different ports`, 2);
// again here, though make asked before building: run.ts may be started by hand, or the build took long
for (const [p, variable] of [
  [port, 'PORT'],
  [k8sPort, 'K8S_PORT'],
] as const) {
  const problem = await portProblem(p, variable);
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}
// QEMU's user network always hands the guest this address
const GUEST_IP = '10.0.2.15';
const RUN_DIR = join('_out', 'run');

const keelctl = (...args: string[]) => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error(`keelctl ${args.join(' ')} failed (exit ${r.status})`);
};

let configFile = values.config;
if (configFile === 'gen') {
  // with a disk, the config installs the node there: QEMU's virtio disk is the guest's /dev/vda
  const install = values.disk ? ['--install-disk', '/dev/vda'] : [];
  keelctl('gen', 'config', 'keel', `https://${GUEST_IP}:6443`, '--output', RUN_DIR, '--force', ...install);
  const talosconfig = join(RUN_DIR, 'talosconfig');
  keelctl('--talosconfig', talosconfig, 'config', 'endpoint', `127.0.0.1:${port}`);
  keelctl('--talosconfig', talosconfig, 'config', 'node', GUEST_IP);
  configFile = join(RUN_DIR, 'controlplane.yaml');
}

const hinted = new Set<string>();
/** vmFor starts QEMU on the boot medium of this stage: the ISO (beside DISK, when given) or DISK. */
const vmFor = (stage: 'iso' | 'disk', onLine: (line: string) => void) => {
  try {
    const disk = values.disk;
    return startVm({
      ...(stage === 'disk' && disk
        ? { boot: { kind: 'disk', path: disk, persistent: true } }
        : // with a disk, the reboot after the install ends this QEMU: the next one boots the disk
          { boot: { kind: 'iso', path: values.iso }, ...(disk ? { dataDisk: disk, noReboot: true } : {}) }),
      // a disk is installed for UEFI (systemd-boot and the UKI), which QEMU's OVMF then boots
      ...(values.disk ? { firmware: 'uefi' as const } : {}),
      apiPort: port,
      forwards: [{ host: k8sPort, guest: 6443 }],
      memoryMiB: Number(values.memory),
      onLine: (line) => {
        process.stdout.write(`${line}\n`);
        onLine(line);
        // the node names its own address; from the host only the forwarded port reaches it
        const hint = hostHint(line, port);
        if (hint && !hinted.has(hint)) {
          hinted.add(hint);
          process.stdout.write(`${hint}\n`);
        }
      },
      onStderr: (line) => process.stderr.write(`${line}\n`),
    });
  } catch (e) {
    return fail((e as Error).message);
  }
};

let stage: 'iso' | 'disk' = 'iso';
if (values.disk) {
  const found = await runDisk(values.disk);
  stage = found === 'installed' ? 'disk' : 'iso';
  process.stdout.write(
    found === 'installed'
      ? `run: booting the node installed on ${values.disk}\n`
      : `run: ${values.disk} is attached as /dev/vda; a config with machine.install.disk /dev/vda installs the node there\n`,
  );
}
let vm: Vm | undefined;
let stoppedBy: NodeJS.Signals | undefined;
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.on(sig, () => {
    stoppedBy = sig;
    vm?.kill();
  });

let ended: Ended;
for (;;) {
  let installed = false;
  const current = vmFor(stage, (line) => {
    if (/installed onto \/dev\/vda/.test(line)) installed = true;
  });
  vm = current;
  process.stdout.write(
    `run: QEMU pid ${current.pid}; the node's API is forwarded to 127.0.0.1:${port}, Kubernetes' to 127.0.0.1:${k8sPort}; Ctrl-C stops the VM\n`,
  );
  let qemuEnded = false;
  if (configFile && stage === 'iso') {
    const file = configFile;
    void current
      .waitForLine(/apply-config --insecure/)
      .then(() => {
        process.stdout.write(`run: maintenance mode reached; applying ${file}\n`);
        keelctl('apply-config', '--insecure', '--nodes', `127.0.0.1:${port}`, '--file', file);
        if (values.config === 'gen')
          process.stdout.write(
            `run: then, e.g.: keelctl --talosconfig ${join(RUN_DIR, 'talosconfig')} get machinestatus\n`,
          );
      })
      // QEMU's end is reported below, with its code; no second word about the line it never printed
      .catch((e: unknown) => {
        if (!qemuEnded) process.stderr.write(`run: ${(e as Error).message}\n`);
      });
  }
  ended = await current.ended;
  qemuEnded = true;
  if (stage === 'iso' && installed && !stoppedBy && ended.code === 0) {
    process.stdout.write(`run: the node installed itself on ${values.disk}; booting from it\n`);
    stage = 'disk';
    continue;
  }
  break;
}
process.exitCode = exitCode(ended, stoppedBy);
const how = ended.signal ? `on ${ended.signal}` : `with code ${ended.code}`;
if (process.exitCode === 0) process.stdout.write(`run: QEMU exited ${how}\n`);
else process.stderr.write(`run: QEMU exited ${how}\n`);

/** exitCode is QEMU's own, or a shell's 128+n for a signal: ours when Ctrl-C stopped it, else QEMU's. */
function exitCode(e: Ended, stopped: NodeJS.Signals | undefined): number {
  const signal = stopped ?? e.signal;
  if (signal) return 128 + (constants.signals[signal] ?? 0);
  return e.code ?? 1;
}
