// The standalone server command: its --listen forms, and a real child process answering over a unix socket.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { credentials } from '@grpc/grpc-js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { grpcCoreState } from '../../../src/cosi/api/client.js';
import {
  formatListenAddress,
  grpcBindTarget,
  ListenAddressError,
  parseListenAddress,
} from '../../../src/cosi/cmd/listen-address.js';
import { PathResource } from '../../../src/cosi/testing/resources.js';
import { tempDir } from './harness.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('--listen', () => {
  it('accepts tcp://, unix:// and bare host:port', () => {
    expect(parseListenAddress('tcp://127.0.0.1:8100')).toEqual({
      kind: 'tcp',
      host: '127.0.0.1',
      port: 8100,
    });
    expect(parseListenAddress('localhost:0')).toEqual({ kind: 'tcp', host: 'localhost', port: 0 });
    expect(parseListenAddress('[::1]:9')).toEqual({ kind: 'tcp', host: '[::1]', port: 9 });
    expect(parseListenAddress(':8100')).toEqual({ kind: 'tcp', host: '0.0.0.0', port: 8100 });
    expect(parseListenAddress('unix:///run/cosi.sock')).toEqual({ kind: 'unix', path: '/run/cosi.sock' });
    expect(parseListenAddress('unix:/run/cosi.sock')).toEqual({ kind: 'unix', path: '/run/cosi.sock' });
    const unix = parseListenAddress('unix:///run/cosi.sock');
    expect([grpcBindTarget(unix), formatListenAddress(unix)]).toEqual([
      'unix:///run/cosi.sock',
      'unix:///run/cosi.sock',
    ]);
  });

  it('rejects other forms, saying why', () => {
    for (const [value, why] of [
      ['http://x:1', 'only tcp:// and unix:// are supported'],
      ['unix://relative.sock', 'the socket path must be absolute'],
      ['127.0.0.1', 'expected host:port'],
      ['h:70000', 'port 70000 is out of range'],
    ]) {
      expect(() => parseListenAddress(value!)).toThrow(new ListenAddressError(value!, why!));
    }
  });
});

/** startCommand runs the command as a child and resolves with the address it logs once listening. */
async function startCommand(listen: string): Promise<{ child: ChildProcess; address: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cosi/cmd/runtime.ts', '--listen', listen], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit');
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const lines = createInterface({ input: child.stdout! });
  const ready = (async () => {
    for await (const line of lines) {
      const m = /listening on (\S+)/.exec(line);
      if (m) return m[1]!;
    }
    throw new Error(`the command exited before listening: ${stderr}`);
  })();
  return { child, address: await ready };
}

describe('runtime command', () => {
  it('serves the State API over a unix socket and stops cleanly on SIGTERM', async () => {
    const tmp = await tempDir();
    onTestFinished(tmp.remove);
    const socket = join(tmp.dir, 'runtime.sock');
    const { child, address } = await startCommand(`unix://${socket}`);
    expect(address).toBe(`unix://${socket}`);

    const remote = grpcCoreState(address, credentials.createInsecure());
    onTestFinished(() => remote.close());
    const r = PathResource.new('default', 'hello');
    await remote.create(r);
    expect(r.metadata.version).toBe(1);
    const got = await remote.get(r.metadata);
    expect([got.metadata.id, got.metadata.version]).toEqual(['hello', 1]);
    // the meta definitions are registered
    const rds = await remote.list({ namespace: 'meta', type: 'ResourceDefinitions.meta.cosi.dev' });
    expect(rds.map((d) => d.metadata.id)).toEqual(
      expect.arrayContaining(['namespaces.meta.cosi.dev', 'resourcedefinitions.meta.cosi.dev']),
    );

    remote.close();
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
  });
});
