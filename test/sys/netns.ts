// Network namespaces for tests against the real kernel. `enterNetns` moves this test process's main
// thread (so every socket it opens and every child it spawns) into a fresh named namespace for the rest
// of the file; `peerNetns` makes another one to put the far end of a veth (and a server) in. Both are
// torn down after the file, and processes started in a peer die with this process (PR_SET_PDEATHSIG),
// so a crashed test leaves no server behind; a crashed run's namespaces are swept by the next one.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync } from 'node:fs';
import { afterAll } from 'vitest';
import { CLONE_NEWNET, setnsFd, setnsPath } from '../../src/sys/namespace.js';
import { requireRoot } from './child.js';

const PREFIX = 'keel-t';
const alive = (pid: number) => existsSync(`/proc/${pid}`);

/** ip runs iproute2 in the namespace this thread is in and returns its output. */
export const ip = (...args: string[]): string => execFileSync('ip', args, { encoding: 'utf8' });

/** sweepStale deletes namespaces a test process that is gone left behind. */
function sweepStale(): void {
  const dir = '/run/netns';
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const m = new RegExp(`^${PREFIX}-(\\d+)-`).exec(name);
    if (m && !alive(Number(m[1]))) execFileSync('ip', ['netns', 'del', name]);
  }
}

let seq = 0;
const newName = (tag: string) => `${PREFIX}-${process.pid}-${tag}${seq++}`;

export interface Peer {
  readonly name: string;
  /** run runs a command in the peer namespace to completion */
  run(cmd: string, ...args: string[]): string;
  /** start starts a long-running process there; it is killed after the file, or with this process */
  start(cmd: string, args: readonly string[]): ChildProcess;
}

/** enterNetns moves this test file into a fresh namespace with lo up; restored after the file. */
export function enterNetns(): string {
  requireRoot('network namespace tests');
  sweepStale();
  const name = newName('self');
  ip('netns', 'add', name);
  const home = openSync('/proc/thread-self/ns/net', 'r');
  setnsPath(`/run/netns/${name}`, CLONE_NEWNET);
  ip('link', 'set', 'lo', 'up');
  afterAll(() => {
    setnsFd(home, CLONE_NEWNET);
    closeSync(home);
    execFileSync('ip', ['netns', 'del', name]);
  });
  return name;
}

/** peerNetns makes a second namespace, for the far end of a veth pair. */
export function peerNetns(tag = 'peer'): Peer {
  const name = newName(tag);
  ip('netns', 'add', name);
  const children: ChildProcess[] = [];
  afterAll(async () => {
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('exit', () => resolve());
            c.kill('SIGKILL');
          }),
      ),
    );
    execFileSync('ip', ['netns', 'del', name]);
  });
  return {
    name,
    run: (cmd, ...args) => execFileSync('ip', ['netns', 'exec', name, cmd, ...args], { encoding: 'utf8' }),
    start: (cmd, args) => {
      const c = spawn('ip', ['netns', 'exec', name, 'setpriv', '--pdeathsig', 'KILL', cmd, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(c);
      return c;
    },
  };
}

/** vethTo makes a veth pair with `local` here and `remote` in the peer, both up. */
export function vethTo(peer: Peer, local: string, remote: string): void {
  ip('link', 'add', local, 'type', 'veth', 'peer', 'name', remote, 'netns', peer.name);
  ip('link', 'set', local, 'up');
  peer.run('ip', 'link', 'set', remote, 'up');
}

export interface TapPeer extends Peer {
  /** the tap device in the namespace, for QEMU's `-netdev tap,ifname=…` */
  readonly ifname: string;
}

/**
 * tapNetns makes a namespace with lo up and a (persistent) tap device in it holding `address` (a CIDR),
 * for a VM's NIC: the VM's network is then only what the test puts in there, and nothing of it reaches
 * the host's own namespace. Kill the VM before the file ends (the tap goes with the namespace).
 */
export function tapNetns(address: string, tag = 'tap'): TapPeer {
  requireRoot('a tap network for a VM');
  sweepStale();
  const peer = peerNetns(tag);
  const ifname = 'tap0';
  peer.run('ip', 'link', 'set', 'lo', 'up');
  peer.run('ip', 'tuntap', 'add', 'dev', ifname, 'mode', 'tap');
  peer.run('ip', 'address', 'add', address, 'dev', ifname);
  peer.run('ip', 'link', 'set', ifname, 'up');
  return { ...peer, ifname };
}

export interface BridgePeer extends Peer {
  /** the bridge, holding the address */
  readonly bridge: string;
  /** one tap device per VM, each a port of the bridge */
  readonly taps: readonly string[];
}

/**
 * bridgeNetns is tapNetns for several VMs on one LAN: a bridge holding `address` with `count` taps as
 * its ports, so the VMs reach each other and the namespace, and nothing else.
 */
export function bridgeNetns(address: string, count: number, tag = 'lan'): BridgePeer {
  requireRoot('a bridged network for VMs');
  sweepStale();
  const peer = peerNetns(tag);
  const bridge = 'br0';
  peer.run('ip', 'link', 'set', 'lo', 'up');
  peer.run('ip', 'link', 'add', bridge, 'type', 'bridge');
  peer.run('ip', 'address', 'add', address, 'dev', bridge);
  peer.run('ip', 'link', 'set', bridge, 'up');
  const taps = Array.from({ length: count }, (_, i) => `tap${i}`);
  for (const tap of taps) {
    peer.run('ip', 'tuntap', 'add', 'dev', tap, 'mode', 'tap');
    peer.run('ip', 'link', 'set', tap, 'master', bridge);
    peer.run('ip', 'link', 'set', tap, 'up');
  }
  return { ...peer, bridge, taps };
}
