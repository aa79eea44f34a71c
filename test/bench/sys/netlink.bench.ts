// rtnetlink costs, in a network namespace of the benchmark's own: a request's round trip, making and
// dumping 200 links with every request in flight at once, and how soon a subscription sees a change.
import { execFileSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { CLONE_NEWNET, setnsFd, setnsPath } from '../../../src/sys/namespace.js';
import * as C from '../../../src/sys/netlink/constants.js';
import { encodeLink, Rtnetlink, type RtnlEvent, subscribe } from '../../../src/sys/netlink/index.js';
import { FdPoller } from '../../../src/sys/poller.js';
import { figure, group, nowMs, percentile } from '../harness.js';

const N = 200;
const ns = `keel-bench-nl-${process.pid}`;
execFileSync('ip', ['netns', 'add', ns]);
const home = openSync('/proc/thread-self/ns/net', 'r');
setnsPath(`/run/netns/${ns}`, CLONE_NEWNET);
const poller = new FdPoller();
const rt = Rtnetlink.open({ poller });

/** the cheapest kind this kernel makes: dummy where built in, else ifb, else bridge */
function cheapKind(): string {
  for (const k of ['dummy', 'ifb', 'bridge'])
    try {
      execFileSync('ip', ['link', 'add', 'probe0', 'type', k], { stdio: 'ignore' });
      execFileSync('ip', ['link', 'del', 'probe0']);
      return k;
    } catch {}
  throw new Error('no link kind to benchmark with');
}

try {
  const kind = cheapKind();
  await group('rtnetlink requests (target ≤ 100 µs per linkByName round trip)', async () => {
    for (let i = 0; i < 200; i++) await rt.linkByName('lo'); // warm-up
    const t0 = nowMs();
    for (let i = 0; i < 2000; i++) await rt.linkByName('lo');
    figure('linkByName("lo"), one at a time', ((nowMs() - t0) * 1000) / 2000, 'µs/request', {
      op: '<=',
      value: 100,
    });
  });

  await group(`${N} ${kind} links (target ≤ 500 ms to create, ≤ 50 ms to dump)`, async () => {
    const names = Array.from({ length: N }, (_, i) => `bn${i}`);
    const make = (name: string) =>
      rt.socket.request(C.RTM_NEWLINK, C.NLM_F_CREATE | C.NLM_F_EXCL, encodeLink({ name, info: { kind } }));
    let t0 = nowMs();
    await Promise.all(names.map(make));
    figure(`create ${N} (all in flight)`, nowMs() - t0, 'ms', { op: '<=', value: 500 });
    t0 = nowMs();
    const links = await rt.listLinks();
    figure(`listLinks with ${links.length} links`, nowMs() - t0, 'ms', { op: '<=', value: 50 });
    t0 = nowMs();
    await Promise.all(names.map((n) => rt.deleteLink(n)));
    figure(`delete ${N} (all in flight)`, nowMs() - t0, 'ms');
  });

  await group('event latency: setLink up/down to the subscription event (target p99 ≤ 5 ms)', async () => {
    await rt.socket.request(
      C.RTM_NEWLINK,
      C.NLM_F_CREATE | C.NLM_F_EXCL,
      encodeLink({ name: 'lat0', info: { kind } }),
    );
    let waiting: ((e: RtnlEvent) => void) | undefined;
    const sub = subscribe({ poller, groups: [C.RTNLGRP_LINK], onEvent: (e) => waiting?.(e) });
    const sample: number[] = [];
    for (let i = 0; i < 200; i++) {
      const up = i % 2 === 0;
      const seen = new Promise<void>((resolve) => {
        waiting = (e) => {
          if (e.kind === 'link' && e.link.name === 'lat0' && Boolean(e.link.flags & C.IFF_UP) === up)
            resolve();
        };
      });
      const t0 = nowMs();
      await rt.setLink('lat0', { up });
      await seen;
      sample.push(nowMs() - t0);
    }
    sub.close();
    figure('p50', percentile(sample, 50), 'ms');
    figure('p99', percentile(sample, 99), 'ms', { op: '<=', value: 5 });
  });
} finally {
  rt.close();
  poller.close();
  setnsFd(home, CLONE_NEWNET);
  closeSync(home);
  execFileSync('ip', ['netns', 'del', ns]);
}
