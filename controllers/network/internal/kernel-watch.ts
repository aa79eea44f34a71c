// The loop every kernel-facing network controller runs: netlink multicast events wake it as resource
// events do (the runtime coalesces a burst into one pass), and each pass reads the kernel afresh with a
// dump, so nothing is tracked event by event: a lost event ('resync', ENOBUFS) is one more wake-up, and
// changes the kernel makes silently (IPv4 routes flushed with their link) are seen on the next one.
import type { ControllerRuntime } from '../../../src/cosi/controller/index.js';
import { NetlinkSocket, subscribe } from '../../../src/sys/netlink/index.js';

export interface KernelLoopOptions {
  /** RTNLGRP_* groups whose events wake the controller */
  readonly groups: readonly number[];
  readonly signal: AbortSignal;
}

/**
 * kernelLoop subscribes before the first dump (so no change falls between the two), then runs `pass`
 * once per wake-up with a request socket of its own; both sockets close when the loop ends or throws.
 */
export async function kernelLoop(
  rt: ControllerRuntime,
  { groups, signal }: KernelLoopOptions,
  pass: (sock: NetlinkSocket) => Promise<void>,
): Promise<void> {
  const events = subscribe({ groups, signal, onEvent: () => rt.queueReconcile() });
  let sock: NetlinkSocket | undefined;
  try {
    sock = new NetlinkSocket();
    for await (const _ of rt.events(signal)) {
      await pass(sock);
      rt.recordMetric('reconcile_cycles', 1);
    }
  } finally {
    events.close();
    sock?.close();
  }
}
