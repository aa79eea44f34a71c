import { describe, expect, it } from 'vitest';
import { keelVersion } from '../../src/api/version.js';

describe('keelVersion', () => {
  it('takes the tag and sha stamped at build time', () => {
    expect(
      keelVersion({ tag: 'v0.3.0-4-gabc', sha: 'abc1234', built: '2026-01-01T00:00:00Z' }),
    ).toMatchObject({
      tag: 'v0.3.0-4-gabc',
      sha: 'abc1234',
      built: '2026-01-01T00:00:00Z',
    });
  });
  it('falls back to package.json and reports Go-style os/arch', () => {
    const v = keelVersion({});
    expect(v.tag).toMatch(/^v\d+\.\d+\.\d+/);
    expect(v.sha).toBe('unknown');
    expect(v.os).toBe(process.platform);
    expect(['amd64', 'arm64', '386', 'arm', process.arch]).toContain(v.arch);
    expect(v.go_version).toBe(`node${process.versions.node}`);
  });
});
