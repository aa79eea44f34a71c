// warmUp runs a method's first call locally (decode, handler, encode) so that its types and codecs exist
// before the first client's call; what the client then receives is tested with real calls elsewhere.
import { describe, expect, it } from 'vitest';
import type { ApiMessage, Handler } from '../../src/api/handlers.js';
import { loadApiProto } from '../../src/api/proto.js';
import { versionHandler } from '../../src/api/version.js';
import { warmUp } from '../../src/api/warm-up.js';

const VERSION = '/machine.MachineService/Version';
const versionDef = () => loadApiProto().services.get('machine.MachineService')!.Version!;

describe('warmUp', () => {
  it("decodes an empty request, runs the handler once and encodes its reply, as Version's first call will", async () => {
    const real = versionHandler({ rbac: false });
    if (real.kind !== 'unary') throw new Error('Version is unary');
    const seen: ApiMessage[] = [];
    const replies: ApiMessage[] = [];
    const handler: Handler = {
      kind: 'unary',
      fn: async (req, ctx) => {
        seen.push(req);
        const reply = await real.fn(req, ctx);
        replies.push(reply);
        return reply;
      },
    };
    const def = versionDef();
    const encoded: Buffer[] = [];
    const spyDef = {
      ...def,
      responseSerialize: (m: object) => {
        const b = def.responseSerialize(m);
        encoded.push(b);
        return b;
      },
    };
    await warmUp(spyDef, VERSION, handler);
    expect(seen).toEqual([{}]);
    expect(encoded).toHaveLength(1);
    // the bytes are the reply's: they decode back to the version the handler gave
    const back = def.responseDeserialize(encoded[0]!) as { messages: Array<{ version: { tag: string } }> };
    expect(back.messages[0]!.version.tag).toBe(
      (replies[0] as { messages: Array<{ version: { tag: string } }> }).messages[0]!.version.tag,
    );
  });

  it('leaves a failing handler or reply to the first call, and skips streaming handlers', async () => {
    let calls = 0;
    const failing: Handler = {
      kind: 'unary',
      fn: async () => {
        calls++;
        throw new Error('not yet');
      },
    };
    await expect(warmUp(versionDef(), VERSION, failing)).resolves.toBeUndefined();
    expect(calls).toBe(1);
    const misfit: Handler = { kind: 'unary', fn: async () => ({ messages: 'not a list' }) };
    await expect(warmUp(versionDef(), VERSION, misfit)).resolves.toBeUndefined();
    const stream: Handler = {
      kind: 'server-stream',
      fn: async () => {
        calls++;
      },
    };
    await warmUp(versionDef(), VERSION, stream);
    expect(calls).toBe(1);
  });
});
