// destroyIfPresent: a controller takes back an output it no longer wants, and an output already gone is
// the same answer, not an error.
import type { ControllerRuntime } from '../../src/cosi/controller/index.js';
import type { Pointer } from '../../src/cosi/resource/kind.js';
import { isNotFound } from '../../src/cosi/state/errors.js';

export async function destroyIfPresent(
  rt: ControllerRuntime,
  ptr: Pointer,
  opts: { signal?: AbortSignal } = {},
): Promise<void> {
  try {
    await rt.destroy(ptr, opts);
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}
