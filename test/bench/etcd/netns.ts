// A network namespace of the benchmark's own, entered by this thread: the node's fixed ports (50000, 2379,
// 2380) cannot clash with anything on the host, and every child (the node, its etcd, a bare etcd) runs in
// it too, so the node's etcd and the bare one are reached over the same loopback path. A veth pair with
// both ends in here holds the address the node advertises (etcd wants one that is not loopback; a veth,
// not a dummy link, as not every kernel has the dummy driver).
import { execFileSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { CLONE_NEWNET, setnsFd, setnsPath } from '../../../src/sys/namespace.js';

const ip = (...args: string[]) => execFileSync('ip', args, { encoding: 'utf8', stdio: 'pipe' });

export interface OwnNetns {
  readonly name: string;
  /** leave goes back to the host's namespace and deletes this one; safe to call twice */
  leave(): void;
}

/** enterOwnNetns makes `keel-b-<pid>-<tag>`, enters it, brings lo up and puts `cidr` on a veth. */
export function enterOwnNetns(tag: string, cidr: string): OwnNetns {
  if (process.getuid?.() !== 0) throw new Error(`the ${tag} benchmark needs root (network namespaces)`);
  const name = `keel-b-${process.pid}-${tag}`;
  const home = openSync('/proc/thread-self/ns/net', 'r');
  let entered = false;
  let left = false;
  const leave = () => {
    if (left) return;
    left = true;
    if (entered) setnsFd(home, CLONE_NEWNET);
    closeSync(home);
    try {
      ip('netns', 'del', name);
    } catch {
      // never made: its `netns add` failed
    }
  };
  try {
    ip('netns', 'add', name);
    setnsPath(`/run/netns/${name}`, CLONE_NEWNET);
    entered = true;
    ip('link', 'set', 'lo', 'up');
    ip('link', 'add', 'kd0', 'type', 'veth', 'peer', 'name', 'kd1');
    ip('address', 'add', cidr, 'dev', 'kd0');
    ip('link', 'set', 'kd1', 'up');
    ip('link', 'set', 'kd0', 'up');
  } catch (e) {
    leave();
    throw e;
  }
  return { name, leave };
}
