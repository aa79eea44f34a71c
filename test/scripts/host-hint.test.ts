// The node's apply-config hints, rewritten by `make run` to the forwarded loopback port (#28).
import { describe, expect, it } from 'vitest';
import { hostHint } from '../../scripts/lib/host-hint.js';

describe('hostHint', () => {
  it('keeps the command and replaces only the node address', () => {
    expect(
      hostHint(
        '[keel] apply a config: keelctl apply-config --insecure --nodes 10.0.2.15 --file controlplane.yaml',
        50001,
      ),
    ).toBe(
      'run: from this host: keelctl apply-config --insecure --nodes 127.0.0.1:50001 --file controlplane.yaml',
    );
  });

  it("rewrites the hint of a node without an address yet, and the API's talosctl lines", () => {
    expect(
      hostHint(
        '[    4.2] [keel] no IPv4 address yet: apply a config with keelctl apply-config --insecure --nodes <node-ip> --file c.yaml',
        50000,
      ),
    ).toBe('run: from this host: keelctl apply-config --insecure --nodes 127.0.0.1:50000 --file c.yaml');
    expect(
      hostHint(
        "pin it with: talosctl apply-config --insecure --nodes 0.0.0.0 --cert-fingerprint 'a+b=' --file <config.yaml>",
        50000,
      ),
    ).toBe(
      "run: from this host: talosctl apply-config --insecure --nodes 127.0.0.1:50000 --cert-fingerprint 'a+b=' --file <config.yaml>",
    );
  });

  it('leaves every other line alone', () => {
    expect(hostHint('[keel] node addresses: 10.0.2.15', 50000)).toBeUndefined();
    expect(hostHint('run: maintenance mode reached; applying x.yaml', 50000)).toBeUndefined();
  });
});
