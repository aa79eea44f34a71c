import { describe, expect, it } from 'vitest';
import { talosconfigPath } from '../../../src/cli/client/talosconfig.js';

const none = () => false;
const all = () => true;

describe('talosconfigPath', () => {
  it('takes the flag first', () => {
    expect(talosconfigPath('/x', { KEELCONFIG: '/k', TALOSCONFIG: '/t', HOME: '/h' }, all)).toBe('/x');
  });

  it("takes keelctl's variable before talosctl's", () => {
    expect(talosconfigPath(undefined, { KEELCONFIG: '/k', TALOSCONFIG: '/t', HOME: '/h' }, all)).toBe('/k');
    expect(talosconfigPath(undefined, { TALOSCONFIG: '/t', HOME: '/h' }, all)).toBe('/t');
  });

  it("uses keelctl's own home file when it exists, otherwise talosctl's", () => {
    expect(talosconfigPath(undefined, { HOME: '/h' }, all)).toBe('/h/.keel/config');
    expect(talosconfigPath(undefined, { HOME: '/h' }, none)).toBe('/h/.talos/config');
  });
});
