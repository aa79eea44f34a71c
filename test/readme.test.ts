// The README's container-mode flow, run verbatim against a real container node: real TLS, real keelctl
// processes, no mocks. The test reads the shell block after `<!-- readme-flow: container -->` and runs
// each line as bash would, one command at a time, checking it exits 0 and prints what the README's
// comment on that line says it shows.
//
// The one substitution: the README says `127.0.0.1:50000` and `_out/demo`; the test replaces those two
// strings with a free loopback port and a temporary directory, and nothing else. Lines that only set the
// shell up (`alias`, `export`) are carried into every later command, so `keelctl` is the README's alias
// itself. The `make container-node … &` line is run through `make -n` to read the command make would
// start, which must be the one the node harness starts; the harness then starts it in the background.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, freePort, type NodeProcess, spawnNode, tempStateDir } from './machined/node/harness.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const MARK = '<!-- readme-flow: container -->';
const README_ADDRESS = '127.0.0.1:50000';
const README_DIR = '_out/demo';
const run = promisify(execFile);

/** flow returns the lines of the first shell block after the mark, each split into command and comment */
function flow(readme: string): { command: string; comment: string }[] {
  const at = readme.indexOf(MARK);
  if (at < 0) throw new Error(`README.md has no ${MARK}`);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!block) throw new Error(`no sh block after ${MARK}`);
  return block[1]!
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const m = /^(.*?)\s+#\s+(.*)$/.exec(l);
      return m ? { command: m[1]!.trim(), comment: m[2]! } : { command: l.trim(), comment: '' };
    });
}

interface Expectation {
  /** which README command this is */
  readonly command: RegExp;
  /** words the README's comment on the line must contain: what it promises */
  readonly says?: string;
  /** what the command must print (stdout and stderr) */
  readonly shows?: RegExp;
  /** what the node must print after it (what a reader sees on the node's console) */
  readonly nodePrints?: readonly RegExp[];
  /** the node process's exit code after it */
  readonly exits?: number;
}

const EXPECTED: readonly Expectation[] = [
  { command: /^keelctl gen config /, says: 'talosconfig', shows: /talosconfig/ },
  {
    command: /^make container-node /,
    says: 'maintenance mode',
    nodePrints: [/maintenance mode/, /upload it with: talosctl apply-config --insecure/],
  },
  {
    command: /^keelctl apply-config --insecure /,
    says: 'Applied configuration',
    shows: /Applied configuration/,
    nodePrints: [/api: serving with mutual TLS/],
  },
  { command: /^keelctl config endpoint / },
  { command: /^keelctl config node / },
  { command: /^keelctl version$/, says: 'Tag', shows: /Client:[\s\S]*Tag:[\s\S]*Server:[\s\S]*Tag:/ },
  {
    command: /^keelctl get machinestatus$/,
    says: 'running, ready: true',
    shows: /MachineStatus\s+machine\s+\d+\s+running\s+true/,
  },
  { command: /^keelctl services$/, says: 'apid Running, health OK', shows: /apid\s+Running\s+OK/ },
  { command: /^keelctl logs machined /, says: 'boot sequence: done', shows: /boot sequence: done/ },
  { command: /^keelctl reboot$/, says: 'post check passed', shows: /post check passed/ },
  {
    command: /^keelctl get bootids$/,
    says: 'new boot id',
    shows: /BootID\s+boot-id\s+\d+\s+[0-9a-f-]{36}/,
  },
  { command: /^keelctl shutdown$/, says: 'exits 0', exits: 0 },
];

afterAll(cleanup);

describe('the README', () => {
  it('runs its container-mode flow verbatim against a real node', { timeout: 60_000 }, async () => {
    const lines = flow(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    const text = lines.map((l) => l.command).join('\n');
    // every node address and directory of the block is one the substitution covers (the cluster endpoint,
    // https://…:6443, is only written into the config)
    const addresses = text.match(/(?<!\/\/)127\.0\.0\.1:\d+/g) ?? [];
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.filter((a) => a !== README_ADDRESS)).toEqual([]);
    expect((text.match(/_out\/[\w/.-]*/g) ?? []).filter((p) => !p.startsWith(README_DIR))).toEqual([]);

    const port = await freePort();
    const dir = tempStateDir();
    const home = tempStateDir();
    const substitute = (s: string) =>
      s.replaceAll(README_ADDRESS, `127.0.0.1:${port}`).replaceAll(README_DIR, dir);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
    delete env.TALOSCONFIG;
    delete env.KEELCONFIG;

    const prelude: string[] = ['shopt -s expand_aliases'];
    const shell = async (line: string) => {
      try {
        const { stdout, stderr } = await run('bash', ['-c', [...prelude, line].join('\n')], {
          cwd: ROOT,
          env,
          timeout: 30_000,
        });
        return { code: 0, output: stdout + stderr };
      } catch (e) {
        const err = e as { code?: number; stdout?: string; stderr?: string };
        return { code: err.code ?? -1, output: `${err.stdout ?? ''}${err.stderr ?? ''}` };
      }
    };

    let node: NodeProcess | undefined;
    let bootIdBefore = '';
    for (const { command, comment } of lines) {
      const line = substitute(command);
      if (/^(alias|export) /.test(command)) {
        prelude.push(line);
        expect((await shell('true')).code, line).toBe(0);
        continue;
      }
      const want = EXPECTED.filter((e) => e.command.test(command));
      expect(want, `expectations for the README's ${JSON.stringify(command)}`).toHaveLength(1);
      const { says, shows, nodePrints = [], exits } = want[0]!;
      if (says) expect(comment, `the README's comment on ${JSON.stringify(command)}`).toContain(says);

      const make = /^make (container-node (.*)) &$/.exec(line);
      if (make) {
        // the command make would start, as the harness starts it
        const vars = Object.fromEntries(make[2]!.split(/\s+/).map((v) => v.split('=') as [string, string]));
        expect(vars).toEqual({ STATE: `${dir}/state`, ADDR: `127.0.0.1:${port}` });
        // (--no-print-directory: under `make test` this make is a nested one, which would name its directory)
        const { stdout } = await run('make', ['-n', '--no-print-directory', ...make[1]!.split(/\s+/)], {
          cwd: ROOT,
          env,
        });
        expect(stdout.trim().split('\n').at(-1)).toBe(
          `node --import tsx src/machined/container-entry.ts --state-dir ${vars.STATE} --api-address ${vars.ADDR}`,
        );
        node = await spawnNode(vars.STATE!, port);
      } else {
        // the boot id a reboot must change, read with the README's own alias and talosconfig
        if (/^keelctl reboot\b/.test(command))
          bootIdBefore = bootIdOf((await shell('keelctl get bootids')).output);
        const { code, output } = await shell(line);
        expect(code, `${line}\n${output}`).toBe(0);
        if (shows) expect(output, line).toMatch(shows);
        if (/^keelctl get bootids\b/.test(command)) {
          expect(bootIdBefore, 'the boot id before the reboot').toMatch(/^[0-9a-f-]{36}$/);
          expect(bootIdOf(output)).not.toBe(bootIdBefore);
        }
      }
      for (const re of nodePrints) {
        if (!node) throw new Error(`${command}: no node started yet`);
        await node.waitForLine(re);
      }
      if (exits !== undefined) expect(await node?.exited).toBe(exits);
    }
    expect(existsSync(join(dir, 'state', 'config.yaml'))).toBe(true);
  });
});

/** bootIdOf takes the boot id out of `get bootids`' table */
const bootIdOf = (table: string): string => /\b([0-9a-f]{8}-[0-9a-f-]{27})\b/.exec(table)?.[1] ?? '';
