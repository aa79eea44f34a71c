// `make run`: boot the ISO in QEMU with the node's API forwarded to 127.0.0.1:<port>, show its console,
// and (with --config) apply a machine config as soon as maintenance mode answers. Ends with QEMU's exit
// code, so a QEMU that refuses to start fails `make run` with its own message.
//   --config FILE   apply FILE with `keelctl apply-config --insecure`
//   --config gen    generate a single-node config and talosconfig in _out/run first
import { spawnSync } from 'node:child_process';
import { constants } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { hostHint } from './lib/host-hint.js';
import { parsePort, portProblem } from './lib/port-free.mjs';
import { type Ended, startVm } from './lib/qemu.js';

const { values } = parseArgs({
  options: {
    iso: { type: 'string', default: '_out/keel.iso' },
    port: { type: 'string', default: '50000' },
    config: { type: 'string' },
    memory: { type: 'string', default: '2048' },
  },
  strict: true,
});
const fail = (message: string, code = 1): never => {
  process.stderr.write(`run: ${message}\n`);
  process.exit(code);
};
const port = parsePort(values.port) ?? fail(`--port ${values.port}: not a TCP port`, 2);
// again here, though make asked before building: run.ts may be started by hand, or the build took long
const problem = await portProblem(port);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
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
  keelctl('gen', 'config', 'keel', `https://${GUEST_IP}:6443`, '--output', RUN_DIR, '--force');
  const talosconfig = join(RUN_DIR, 'talosconfig');
  keelctl('--talosconfig', talosconfig, 'config', 'endpoint', `127.0.0.1:${port}`);
  keelctl('--talosconfig', talosconfig, 'config', 'node', GUEST_IP);
  configFile = join(RUN_DIR, 'controlplane.yaml');
}

const hinted = new Set<string>();
const vm = (() => {
  try {
    return startVm({
      boot: { kind: 'iso', path: values.iso },
      apiPort: port,
      memoryMiB: Number(values.memory),
      onLine: (line) => {
        process.stdout.write(`${line}\n`);
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
})();
process.stdout.write(
  `run: QEMU pid ${vm.pid}; the node's API is forwarded to 127.0.0.1:${port}; Ctrl-C stops the VM\n`,
);
let stoppedBy: NodeJS.Signals | undefined;
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.on(sig, () => {
    stoppedBy = sig;
    vm.kill();
  });

let qemuEnded = false;
if (configFile) {
  const file = configFile;
  void vm
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

const ended = await vm.ended;
qemuEnded = true;
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
