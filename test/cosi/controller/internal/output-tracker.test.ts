import { describe, expect, it } from 'vitest';
import { controllerErrorCode } from '../../../../src/cosi/controller/errors.js';
import { outputTracker } from '../../../../src/cosi/controller/internal/output-tracker.js';

const code = async (f: () => unknown): Promise<string | undefined> => {
  try {
    await f();
  } catch (e) {
    return controllerErrorCode(e);
  }
  return undefined;
};

describe('outputTracker', () => {
  const noAdapter = () => {
    throw new Error('the adapter is not needed here');
  };

  it('cannot start twice, nor clean up without starting', async () => {
    const t = outputTracker('C', noAdapter);
    expect(await code(() => t.cleanup([], new AbortController().signal))).toBe('output-tracking');
    t.start();
    expect(await code(() => t.start())).toBe('output-tracking');
    t.drop();
    t.start(); // dropped on controller exit: a restarted controller may start again
  });
});
