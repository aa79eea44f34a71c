// The boot benchmark's floor /init, run as PID 1 of a PID + mount namespace from an initramfs in a tmpfs.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import {
  buildInit,
  buildInitramfs,
  kmsgCursor,
  requireRoot,
  runInitramfs,
  tempDir,
  within,
} from './harness.js';

let work: ReturnType<typeof tempDir> | undefined;
let initramfs = '';

beforeAll(() => {
  requireRoot();
  work = tempDir('keel-floor-');
  initramfs = buildInitramfs(join(work.path, 'floor.cpio'), buildInit(join(work.path, 'bin')).floor);
});

afterAll(() => work?.remove());

it('mounts /dev, logs that init was reached and powers off', async () => {
  const kmsg = kmsgCursor();
  const r = runInitramfs(initramfs, join(work!.path, 'mnt'));
  onTestFinished(async () => void (await r.kill()));
  // RB_POWER_OFF in a PID namespace ends it: its init dies of SIGINT
  expect(await within(r.ended, 10_000), r.output()).toEqual({ code: null, signal: 'SIGINT' });
  expect(r.output()).toBe('');
  expect(kmsg.records('[keel] [floor]').map((k) => [k.level, k.message])).toEqual([
    [6, '[keel] [floor] init reached'],
  ]);
});
