import { describe, expect, it } from 'vitest';
import { keelVersion, TALOS_API_LEVEL, wireTag } from '../../src/api/version.js';

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

describe('wireTag', () => {
  it.each([
    ['v0.1.0', 'v1.13.0+keel.0.1.0'],
    ['v0.1.0-34-gcbe2a5e-dirty', 'v1.13.0+keel.0.1.0-34-gcbe2a5e-dirty'],
    ['v0.0.0-dev', 'v1.13.0+keel.0.0.0-dev'],
    ['weird/tag_1', 'v1.13.0+keel.weird-tag-1'],
    ['', 'v1.13.0+keel'],
  ])('%j answers as %j: the API level, Keel as build metadata', (tag, want) => {
    expect(wireTag(tag)).toBe(want);
    expect(TALOS_API_LEVEL).toBe('v1.13.0');
  });
});
