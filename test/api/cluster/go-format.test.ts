import { describe, expect, it } from 'vitest';
import { MINIMUM_EPHEMERAL } from '../../../src/api/cluster/checks/sizes.js';
import { iBytes, multiError, plainList, quoteList } from '../../../src/api/cluster/go-format.js';

describe('Go formatting of the check texts', () => {
  it('prints string lists as %q and %v do', () => {
    expect(quoteList(['10.5.0.2', '10.5.0.3'])).toBe('["10.5.0.2" "10.5.0.3"]');
    expect(quoteList([])).toBe('[]');
    expect(plainList(['kube-system/kube-apiserver', 'kube-system/kube-scheduler'])).toBe(
      '[kube-system/kube-apiserver kube-system/kube-scheduler]',
    );
  });

  it('lists errors as go-multierror does, blank line included; none is no error', () => {
    expect(multiError([])).toBeUndefined();
    expect(multiError(['a: broken'])).toBe('1 error occurred:\n\t* a: broken\n\n');
    expect(multiError(['a', 'b'])).toBe('2 errors occurred:\n\t* a\n\t* b\n\n');
  });

  it('prints sizes as humanize.IBytes, upstream’s ephemeral minimum as 3.8 GiB', () => {
    expect(iBytes(0)).toBe('0 B');
    expect(iBytes(1536)).toBe('1.5 KiB');
    expect(iBytes(512 * 2 ** 20)).toBe('512 MiB');
    expect(MINIMUM_EPHEMERAL).toBe(3932 * 2 ** 20);
    expect(iBytes(MINIMUM_EPHEMERAL)).toBe('3.8 GiB');
    expect(iBytes(5.5 * 2 ** 30)).toBe('5.5 GiB');
  });
});
