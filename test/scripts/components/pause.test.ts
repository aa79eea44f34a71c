// The tag of pause as upstream's build/pause/Makefile gives it (scripts/components/pause.ts), which the
// manifest's pin must match.
import { describe, expect, it } from 'vitest';
import { pauseTag } from '../../../scripts/components/pause.js';

describe('pause', () => {
  it("reads the tag of upstream's Makefile", () => {
    expect(
      pauseTag('REGISTRY ?= staging-k8s.gcr.io\nIMAGE = $(REGISTRY)/pause\n\nTAG ?= 3.10.1\nREV = x\n'),
    ).toBe('3.10.1');
    expect(pauseTag('IMAGE = pause\n')).toBeUndefined();
  });
});
