import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { callUnary, errorOf } from '../fixtures.js';
import { useServer } from '../machine/harness.js';

const h = useServer();

describe('TimeService over mTLS', () => {
  it('Time is UNIMPLEMENTED until an NTP client gives it a server time, saying why', async () => {
    const err = await errorOf(callUnary(h.client('time.TimeService'), 'Time', {}));
    expect(err.code).toBe(status.UNIMPLEMENTED);
    expect(err.details).toMatch(/^Time: .*no NTP client/);
  });

  it('TimeCheck is UNIMPLEMENTED, saying why', async () => {
    const err = await errorOf(
      callUnary(h.client('time.TimeService'), 'TimeCheck', { server: 'pool.ntp.org' }),
    );
    expect(err.code).toBe(status.UNIMPLEMENTED);
    expect(err.details).toContain('no NTP client');
  });
});
