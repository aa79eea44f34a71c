import { describe, expect, it } from 'vitest';
import { GO_MODE, goFileMode } from '../../../src/sys/fs/index.js';

describe('goFileMode', () => {
  it.each([
    [0o100644, 0o644],
    [0o040755, GO_MODE.dir + 0o755],
    [0o120777, GO_MODE.symlink + 0o777],
    [0o020666, GO_MODE.device + GO_MODE.charDevice + 0o666],
    [0o060660, GO_MODE.device + 0o660],
    [0o010600, GO_MODE.namedPipe + 0o600],
    [0o140755, GO_MODE.socket + 0o755],
    [0o104755, GO_MODE.setuid + 0o755],
    [0o102755, GO_MODE.setgid + 0o755],
    [0o041777, GO_MODE.dir + GO_MODE.sticky + 0o777],
  ])('st_mode %o', (st, want) => {
    expect(goFileMode(st)).toBe(want);
    expect(goFileMode(st)).toBeLessThan(2 ** 32);
  });
});
