// keelctl apply-config: UNIMPLEMENTED surfaces per node, and --insecure applies to a maintenance-mode node.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiMessage, unaryHandler } from '../../../src/api/handlers.js';
import { run, startMaintenanceNode, startNode, type TestNode, type Workdir, workdir } from '../fixtures.js';

let normal: TestNode;
let maintenance: TestNode;
let wd: Workdir;
let file: string;
const received: ApiMessage[] = [];

beforeAll(async () => {
  [normal, maintenance] = await Promise.all([
    startNode('node-a'),
    startMaintenanceNode({
      '/machine.MachineService/ApplyConfiguration': unaryHandler(async (req) => {
        received.push(req);
        return {
          messages: [
            {
              warnings: ['a warning'],
              mode: 'NO_REBOOT',
              mode_details: 'Applied configuration without a reboot',
            },
          ],
        };
      }),
    }),
  ]);
  wd = await workdir(normal.server.address);
  file = join(wd.dir, 'config.yaml');
  writeFileSync(file, 'version: v1alpha1\nmachine:\n  type: worker\n');
});
afterAll(async () => {
  await Promise.all(
    [normal, maintenance].map((n) => n?.server.close({ signal: AbortSignal.timeout(5_000) })),
  );
  wd?.remove();
});

describe('keelctl apply-config', () => {
  it('surfaces the server’s UNIMPLEMENTED message for the node and exits non-zero', async () => {
    const r = await run(['apply-config', '-f', file], { TALOSCONFIG: wd.talosconfig });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: error on node ${normal.server.address}: rpc error: code = Unimplemented desc = /machine.MachineService/ApplyConfiguration is not implemented: the subsystem behind it does not exist in Keel yet\n`,
    );
  });

  it('applies over --insecure and prints the warnings and mode details', async () => {
    const r = await run(
      [
        'apply-config',
        '--insecure',
        '-n',
        maintenance.server.address,
        '-f',
        file,
        '--mode',
        'no-reboot',
        '--dry-run',
      ],
      { TALOSCONFIG: '/nonexistent' },
    );
    expect(r.stderr).toBe('WARNING: a warning\nApplied configuration without a reboot\n');
    expect(r.code).toBe(0);
    const req = received.at(-1)!;
    expect(Buffer.from(req.data as Uint8Array).toString()).toBe(
      'version: v1alpha1\nmachine:\n  type: worker\n',
    );
    expect(req.mode).toBe('NO_REBOOT');
    expect(req.dry_run).toBe(true);
    expect(req.try_mode_timeout).toEqual({ seconds: '60', nanos: 0 });
  });

  it('names a file it cannot send, in one line, and sends nothing', async () => {
    const at = (name: string, content: Buffer | string) => {
      const path = join(wd.dir, name);
      writeFileSync(path, content);
      return path;
    };
    const cases: [string, string][] = [
      [
        at('random.bin', Buffer.from([0x7b, 0x0a, 0x9f, 0x00, 0x13])),
        'is binary, not YAML: control character 0x00 at offset 3 (line 2)',
      ],
      [
        at('latin1.yaml', Buffer.from('machine:\n  type: w\xe9rker\n', 'latin1')),
        'is not UTF-8 text: byte 0xe9 at offset 18 starts no valid character (line 2)',
      ],
      [
        at('huge.yaml', Buffer.alloc((4 << 20) + 1, 0x20)),
        `is ${(4 << 20) + 1} bytes, over the limit of ${4 << 20} bytes (4 MiB)`,
      ],
      [join(wd.dir, 'missing.yaml'), 'no such file or directory'],
      [wd.dir, 'is a directory'],
    ];
    mkdirSync(wd.dir, { recursive: true });
    const before = received.length;
    for (const [path, why] of cases) {
      const r = await run(['apply-config', '--insecure', '-n', maintenance.server.address, '-f', path], {
        TALOSCONFIG: '/nonexistent',
      });
      expect(r.stderr, path).toBe(`error: reading config ${path}: ${why}\n`);
      expect(r.code, path).toBe(1);
    }
    expect(received.length).toBe(before);
  });

  it('refuses an unknown mode before dialling', async () => {
    const r = await run(['apply-config', '-f', file, '--mode', 'sometimes'], { TALOSCONFIG: wd.talosconfig });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown mode "sometimes"');
  });
});
