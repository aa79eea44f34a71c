import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { goValue, parseYAML } from '../../../../src/cosi/resource/output/goyaml/index.js';
import {
  executeJSONPath,
  JSONPathError,
  parseJSONPath,
} from '../../../../src/cosi/resource/output/jsonpath.js';
import { tabwrite } from '../../../../src/cosi/resource/output/tabwriter.js';

// Expected outputs were produced by k8s.io/client-go/util/jsonpath (AllowMissingKeys) over
// yaml.v3-decoded values, and by text/tabwriter with padding 3.
const fixture = JSON.parse(
  readFileSync(new URL('./fixtures/client-go-jsonpath-and-tabwriter.json', import.meta.url), 'utf8'),
) as {
  jsonpath: { doc: string; path: string; out: string; err: string }[];
  tabwriter: { input: string; output: string }[];
};

describe('executeJSONPath', () => {
  it.each(fixture.jsonpath.map((c) => [c.path, c.doc, c] as const))('%s over %j', (_, __, c) => {
    const value = goValue(parseYAML(c.doc), { ints: 'bigint', keys: 'text', times: 'go' });
    const run = () => executeJSONPath(parseJSONPath(c.path), value);
    if (c.err) expect(run).toThrow(c.err);
    else expect(run()).toBe(c.out);
  });

  it('names the template in its errors', () => {
    expect(() => parseJSONPath('{.a[?(@.b)}')).toThrow(
      new JSONPathError('{.a[?(@.b)}', 'unclosed array expect ]'),
    );
    expect(() => parseJSONPath('{.a[?(@.b=<1)]}')).toThrow('unrecognized filter operator =<');
    expect(() => parseJSONPath('{.a')).toThrow('jsonpath "{.a": unclosed action');
    expect(() => parseJSONPath('{.a[x]}')).toThrow('invalid array index x');
    expect(() => parseJSONPath('{range .a}')).toThrow('unsupported character');
    expect(() => parseJSONPath('{.a....b}')).toThrow('invalid multiple recursive descent');
  });

  it('prints nothing for a null spec', () => {
    expect(executeJSONPath(parseJSONPath('{.aliases[:]}'), null)).toBe('');
  });
});

describe('tabwrite', () => {
  it.each(fixture.tabwriter.map((c) => [c.input, c] as const))('lays out %j as text/tabwriter', (_, c) => {
    expect(tabwrite(c.input, { padding: 3 })).toBe(c.output);
  });
});
