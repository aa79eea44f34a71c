// prctl, prlimit and fcntl on this very process; chroot and execve in a child, since they cannot be undone.
import { closeSync, existsSync, openSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { isCloexec, setCloexec } from '../../src/sys/fcntl.js';
import { finitModule } from '../../src/sys/module.js';
import { getName, isChildSubreaper, setChildSubreaper, setName } from '../../src/sys/prctl.js';
import { getrlimit, setrlimit } from '../../src/sys/rlimit.js';
import { runSnippet, scratchDir, sys } from './child.js';

describe('prctl', () => {
  it('sets and reads the child subreaper flag', () => {
    setChildSubreaper(true);
    expect(isChildSubreaper()).toBe(true);
    setChildSubreaper(false);
    expect(isChildSubreaper()).toBe(false);
  });

  it('names the thread, keeping 15 bytes', () => {
    const before = getName();
    onTestFinished(() => setName(before));
    setName('keel-machined-long-name');
    expect(getName()).toBe('keel-machined-l');
  });
});

describe('prlimit', () => {
  it('lowers and restores the soft NOFILE limit', () => {
    const before = getrlimit('NOFILE');
    onTestFinished(() => setrlimit('NOFILE', before));
    setrlimit('NOFILE', { soft: 512n, hard: before.hard });
    expect(getrlimit('NOFILE')).toEqual({ soft: 512n, hard: before.hard });
    expect(() => setrlimit('NOFILE', { soft: before.hard + 1n, hard: before.hard })).toThrow(
      /prlimit\("NOFILE", 0\): EINVAL/,
    );
  });
});

describe('fcntl', () => {
  it('clears and sets FD_CLOEXEC, which Node sets on every fd it opens', () => {
    const fd = openSync('/dev/null', 'r');
    onTestFinished(() => closeSync(fd));
    expect(isCloexec(fd)).toBe(true);
    setCloexec(fd, false);
    expect(isCloexec(fd)).toBe(false);
    setCloexec(fd, true);
    expect(isCloexec(fd)).toBe(true);
    expect(() => isCloexec(9999)).toThrow(/EBADF/);
  });
});

describe('finit_module', () => {
  it('reaches syscall 313: EBADF for a bad fd, or ENOSYS from a kernel built without modules', () => {
    const expected = existsSync('/proc/modules')
      ? 'EBADF (bad file descriptor)'
      : 'ENOSYS (function not implemented)';
    expect(() => finitModule(9999)).toThrow(`finit_module(9999): ${expected}`);
  });
});

describe('execve and chroot', () => {
  it('execve replaces node and keeps stdout open', () => {
    const r = runSnippet(`
      import { execve } from ${JSON.stringify(sys('exec.ts'))};
      execve('/bin/sh', ['sh', '-c', 'echo "exec ok as $0"'], { PATH: '/usr/bin:/bin' });
    `);
    expect(r.stdout).toBe('exec ok as sh\n');
    expect(r.status).toBe(0);
  });

  it('execve of a missing program throws ENOENT', () => {
    const r = runSnippet(`
      import { execve } from ${JSON.stringify(sys('exec.ts'))};
      try { execve('/nonexistent/prog', ['x']); } catch (e) { console.log(e.message); }
    `);
    expect(r.stdout).toBe('execve("/nonexistent/prog"): ENOENT (no such file or directory)\n');
  });

  it('chroot changes what / means for the process', () => {
    const dir = scratchDir('keel-chroot-');
    const r = runSnippet(`
      import { writeFileSync, readdirSync } from 'node:fs';
      import { chroot } from ${JSON.stringify(sys('chroot.ts'))};
      const dir = ${JSON.stringify(dir)};
      writeFileSync(dir + '/marker', '');
      chroot(dir);
      process.chdir('/');
      console.log(JSON.stringify(readdirSync('/')));
    `);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual(['marker']);
  });
});
