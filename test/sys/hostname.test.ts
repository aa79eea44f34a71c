import { describe, expect, it } from 'vitest';
import { requireRoot, runSnippet, sys } from './child.js';

describe('sethostname/setdomainname in a UTS namespace', () => {
  it('changes the names the kernel reports', () => {
    requireRoot('sethostname');
    const r = runSnippet(
      `
      import { hostname } from 'node:os';
      import { readFileSync } from 'node:fs';
      import { sethostname, setdomainname } from ${JSON.stringify(sys('hostname.ts'))};
      sethostname('keel-node-1');
      setdomainname('example.internal');
      let err;
      try { sethostname('x'.repeat(65)); } catch (e) { err = e.code; }
      console.log(JSON.stringify({ host: hostname(), domain: readFileSync('/proc/sys/kernel/domainname', 'utf8').trim(), err }));
      `,
      ['--uts'],
    );
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ host: 'keel-node-1', domain: 'example.internal', err: 'EINVAL' });
  });
});
