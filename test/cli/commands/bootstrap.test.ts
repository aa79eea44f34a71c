// keelctl bootstrap: one Bootstrap call to the one node named, its refusal printed with a non-zero exit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import { type ApiMessage, unaryHandler } from '../../../src/api/handlers.js';
import { run, startNode, type TestNode, type Workdir, workdir } from '../fixtures.js';

const requests: ApiMessage[] = [];
let refuse = false;
let node: TestNode;
let wd: Workdir;
const env = () => ({ TALOSCONFIG: wd.talosconfig });

beforeAll(async () => {
  node = await startNode('node-a', {
    '/machine.MachineService/Bootstrap': unaryHandler(async (req) => {
      requests.push(req);
      if (refuse) throw new ApiError('failed-precondition', 'etcd data directory is not empty');
      return { messages: [{}] };
    }),
  });
  wd = await workdir(node.server.address);
});
afterAll(async () => {
  await node?.server.close({ signal: AbortSignal.timeout(5_000) });
  wd?.remove();
});

describe('keelctl bootstrap', () => {
  it('asks the node once, without recovery', async () => {
    const r = await run(['bootstrap'], env());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.recover_etcd ?? false).toBe(false);
  });

  it('prints the node’s refusal and exits non-zero', async () => {
    refuse = true;
    const r = await run(['bootstrap'], env());
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('etcd data directory is not empty');
  });

  it('refuses more than one node before calling any', async () => {
    const before = requests.length;
    const r = await run(['bootstrap', '-n', '10.5.0.2,10.5.0.3'], env());
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('bootstrap works on one node at a time');
    expect(requests).toHaveLength(before);
  });
});
