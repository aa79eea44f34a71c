// Records the start trace of machined's executable (scripts/rootfs/start-trace.ts): runs the single
// executable as PID 1 of a PID and mount namespace, as the kernel would, under perf's page-fault
// sampling, asks its maintenance API for Version once it listens, waits for machined's own start that
// follows that first client, and keeps the order in which the start first touched the executable's 64 KiB
// windows and koffi's addon (which only machined's start loads). The root filesystem's build orders
// stage 1's read-ahead by it. Needs root (the namespaces) and perf (`scripts/host-packages.sh trace`).
// usage: node --import tsx scripts/start-trace.ts [--sea DIR] [--out DIR]
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, rmdirSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { credentials, makeGenericClientConstructor } from '@grpc/grpc-js';
import { freePort } from './lib/free-port.js';
import { KOFFI_NODE_PATH } from './lib/image-layout.js';
import { pid1Command } from './lib/pid1-namespace.js';
import { readElfLayout } from './rootfs/elf-layout.js';
import { icuDataDigest } from './rootfs/icu-symbol.js';
import { renderStartTrace, traceFromPerfScript } from './rootfs/start-trace.js';

const repo = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));
const exec = promisify(execFile);
/** what stage 1 (src/init/stage1.c) starts machined with; the start must be the one a node makes */
const NODE_OPTIONS = '--v8-pool-size=1 --use-openssl-ca';
const LISTEN_TIMEOUT_MS = 60_000;

/** version asks the maintenance API for Version (an empty request; the reply is not decoded). */
function version(address: string): Promise<void> {
  const Client = makeGenericClientConstructor({}, 'machine.MachineService');
  const client = new Client(
    address,
    credentials.createSsl(null, null, null, {
      rejectUnauthorized: false,
      checkServerIdentity: () => undefined,
    }),
  );
  return new Promise<void>((resolve, reject) => {
    client.makeUnaryRequest(
      '/machine.MachineService/Version',
      () => Buffer.alloc(0),
      (b: Buffer) => b,
      {},
      { deadline: Date.now() + 30_000 },
      (err) => (err ? reject(err) : resolve()),
    );
  }).finally(() => client.close());
}

/** children lists a process's child pids (Linux's /proc/PID/task/PID/children). */
const children = (pid: number): number[] =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sea: { type: 'string', default: repo('_out/sea') },
      out: { type: 'string', default: repo('images/start-trace') },
    },
    strict: true,
  });
  if (process.getuid?.() !== 0)
    throw new Error('start-trace needs root: machined runs as PID 1 of a new PID namespace');
  await exec('perf', ['--version']).catch(() => {
    throw new Error('start-trace needs perf: scripts/host-packages.sh trace');
  });
  const built = realpathSync(join(values.sea!, 'machined'));
  const layout = await readElfLayout(built);
  if (!layout.buildId)
    throw new Error(`${built} has no GNU build id: its trace could not be told from another's`);

  const tmp = await mkdtemp(join(tmpdir(), 'keel-start-trace-'));
  const data = join(tmp, 'perf.data');
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  // machined makes /system on the root it sees: inside the mount namespace that is the host's directory
  const hadSystem = existsSync('/system');
  const staged = join(tmp, 'sea');
  let mounted = false;
  let perf: ChildProcess | undefined;
  try {
    // The start runs from a tmpfs of small pages, as a node's squashfs caches them. From a file cached in
    // large folios (ext4 since Linux 6.16) one fault maps up to a whole folio, the faults no longer see
    // each 64 KiB window the start touches, and the trace came out with half of them.
    await mkdir(staged);
    await exec('mount', ['-t', 'tmpfs', '-o', 'size=512m,huge=never,mode=0755', 'keel-start-trace', staged]);
    mounted = true;
    const sea = join(staged, 'machined');
    const koffi = join(staged, 'koffi.node');
    await copyFile(built, sea);
    await copyFile(realpathSync(join(values.sea!, 'koffi.node')), koffi);
    perf = spawn(
      'perf',
      [
        'record',
        '-q',
        '-e',
        'minor-faults,major-faults',
        '-c',
        '1',
        '-d',
        '-o',
        data,
        '--',
        ...pid1Command(sea, 'keel-start-trace'),
      ],
      {
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          NODE_OPTIONS,
          KEEL_KOFFI_NODE: koffi,
          KEEL_API_ADDRESS: address,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((r) => perf!.once('exit', (code) => r(code)));
    let console = '';
    perf.stdout!.on('data', (c: Buffer) => (console += c.toString()));
    perf.stderr!.on('data', (c: Buffer) => (console += c.toString()));
    const deadline = Date.now() + LISTEN_TIMEOUT_MS;
    while (!/server certificate fingerprint: /.test(console)) {
      if (perf.exitCode !== null || Date.now() > deadline)
        throw new Error(`machined's maintenance API did not come up:\n${console}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // by name: TLS refuses an IP address as the server name it sends
    await version(`localhost:${port}`);
    // the rest of the node is loaded once the first client has gone; its start is part of the boot too
    while (!/machined up: /.test(console)) {
      if (perf.exitCode !== null || Date.now() > deadline + LISTEN_TIMEOUT_MS)
        throw new Error(`machined did not start after its first client:\n${console}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // the namespace's init (machined) goes with unshare; perf then writes its data and exits
    for (const pid of children(perf.pid!)) process.kill(pid, 'SIGKILL');
    const code = await exited;
    if (code !== 0 && !existsSync(data)) throw new Error(`perf record failed (exit ${code}):\n${console}`);

    const { stdout } = await exec(
      'perf',
      ['script', '-i', data, '--show-mmap-events', '-F', 'pid,time,event,addr'],
      {
        maxBuffer: 256 << 20,
      },
    );
    const trace = traceFromPerfScript(
      stdout,
      { exe: { path: sea, loads: layout.loads }, others: new Map([[koffi, KOFFI_NODE_PATH]]) },
      { buildId: layout.buildId, icuData: await icuDataDigest(built) },
    );
    const windows = trace.entries.filter((e) => 'window' in e).length;
    await mkdir(values.out!, { recursive: true });
    const file = join(values.out!, `${layout.buildId}.trace`);
    await writeFile(
      file,
      renderStartTrace(trace, [
        `The start trace of machined's executable on node ${process.version} (GNU build id ${layout.buildId}, ICU data as trimmed by scripts/sea/icu-trim.ts):`,
        'the 64 KiB windows of its virtual addresses (and other files) in the order a start of machined as PID 1,',
        'to its first Version answer in maintenance mode and its own start after it, first touched them. Recorded by scripts/start-trace.ts',
        '(make start-trace) from perf page-fault samples; scripts/rootfs/read-ahead.ts orders the read-ahead by it.',
        `${windows} windows (${((windows * 64) / 1024).toFixed(1)} MiB).`,
      ]),
    );
    process.stdout.write(`${file}: ${trace.entries.length} entries, ${windows} windows\n`);
  } finally {
    if (perf && perf.exitCode === null) perf.kill('SIGKILL');
    if (!hadSystem && existsSync('/system')) rmdirSync('/system');
    // lazily: a machined still winding down may hold the executable open for a moment
    if (mounted) await exec('umount', ['--lazy', staged]);
    await rm(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`start-trace: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
