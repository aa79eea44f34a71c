// keelctl --help: every command in main's table answers -h and --help with its usage, every flag it parses
// listed with its type and default, and still fails an unknown flag with a usage error.
import { describe, expect, it } from 'vitest';
import type { FlagSpec } from '../../src/cli/args.js';
import { flagLines } from '../../src/cli/help.js';
import type { Output } from '../../src/cli/io.js';
import { commands, main } from '../../src/cli/main.js';

async function capture(argv: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Output = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await main(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** flagLine finds the help line of one flag: `  -x, --name type` or `      --name type`. */
const flagLine = (help: string, name: string, f: FlagSpec): string | undefined =>
  help
    .split('\n')
    .find(
      (l) => l.startsWith(f.short ? `  -${f.short}, --${name}` : `      --${name}`) && l.includes(f.usage),
    );

describe('keelctl <command> --help', () => {
  it.each(commands.map((c) => [c.name, c] as const))('%s', async (name, cmd) => {
    for (const h of ['--help', '-h']) {
      const r = await capture([...name.split(' '), h]);
      expect(r.code).toBe(0);
      expect(r.err).toBe('');
      expect(r.out.startsWith(`${cmd.summary}\n\nUsage:\n  keelctl ${name}`)).toBe(true);
      expect(r.out).toContain(`  -h, --help`);
      for (const [flag, f] of Object.entries({ ...cmd.flags, ...cmd.global })) {
        const line = flagLine(r.out, flag, f);
        expect(line, `--${flag} in ${name} --help`).toBeDefined();
        if (f.default === true) expect(line).toContain('(default true)');
        else if (typeof f.default === 'string' && f.default !== '') expect(line).toContain('(default ');
      }
      if (Object.keys(cmd.global).length) expect(r.out).toContain('\n\nGlobal Flags:\n');
    }
  });

  it.each(commands.map((c) => [c.name] as const))('%s --no-such-flag fails with its usage', async (name) => {
    const r = await capture([...name.split(' '), '--no-such-flag']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('error: unknown flag: --no-such-flag\n\nUsage:\n  keelctl ');
  });

  it('lays flags out as pflag does: sorted, aligned, typed, defaults quoted for strings only', () => {
    expect(
      flagLines({
        wait: { kind: 'bool', default: true, usage: 'wait' },
        timeout: { kind: 'string', type: 'duration', default: '30m', usage: 'how long' },
        mode: { kind: 'string', short: 'm', default: 'auto', usage: 'the mode' },
        nodes: { kind: 'list', short: 'n', commas: true, usage: 'targets' },
        patch: { kind: 'list', usage: 'patches' },
        tail: { kind: 'string', type: 'int', default: '-1', usage: 'lines' },
        force: { kind: 'bool', usage: 'force' },
      }),
    ).toEqual([
      '      --force               force',
      '  -m, --mode string         the mode (default "auto")',
      '  -n, --nodes strings       targets',
      '      --patch stringArray   patches',
      '      --tail int            lines (default -1)',
      '      --timeout duration    how long (default 30m0s)',
      '      --wait                wait (default true)',
    ]);
  });

  it('lists the commands at the root and in each group, and answers help <command>', async () => {
    const root = await capture(['--help']);
    expect(root.code).toBe(0);
    for (const word of new Set(commands.map((c) => c.name.split(' ')[0]!)))
      expect(root.out).toMatch(new RegExp(`^  ${word} +\\S`, 'm'));
    const gen = await capture(['gen', '--help']);
    expect(gen.code).toBe(0);
    expect(gen.out).toMatch(/^ {2}config +Generates a set of configuration files/m);
    expect(gen.out).toMatch(/^ {2}secrets +Generates a secrets bundle/m);
    const topic = await capture(['help', 'reboot']);
    expect(topic.code).toBe(0);
    expect(topic.out).toContain('Usage:\n  keelctl reboot [flags]');
    const unknown = await capture(['gen', 'nonsense']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('error: unknown command "gen nonsense"');
  });
});
