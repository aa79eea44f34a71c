import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { timestampOf } from '../../../src/api/time/index.js';
import { callUnary, errorOf } from '../fixtures.js';
import { type Msg, only, useServer } from '../machine/harness.js';

const h = useServer();

describe('timestampOf', () => {
  it.each([
    [0, { seconds: '0', nanos: 0 }],
    [1_700_000_000_250, { seconds: '1700000000', nanos: 250_000_000 }],
  ])('%i ms', (ms, want) => {
    expect(timestampOf(ms)).toEqual(want);
  });
});

describe('TimeService over mTLS', () => {
  it('Time reports the local clock and no NTP server or remote time', async () => {
    const before = Math.floor(Date.now() / 1000);
    const m = only(await callUnary(h.client('time.TimeService'), 'Time', {}));
    const after = Math.ceil(Date.now() / 1000);
    const seconds = Number((m.localtime as Msg).seconds);
    expect(seconds).toBeGreaterThanOrEqual(before);
    expect(seconds).toBeLessThanOrEqual(after);
    expect(m.server ?? '').toBe('');
    expect(m.remotetime).toBeUndefined();
  });

  it('TimeCheck is UNIMPLEMENTED, saying why', async () => {
    const err = await errorOf(
      callUnary(h.client('time.TimeService'), 'TimeCheck', { server: 'pool.ntp.org' }),
    );
    expect(err.code).toBe(status.UNIMPLEMENTED);
    expect(err.details).toContain('no NTP client');
  });
});
