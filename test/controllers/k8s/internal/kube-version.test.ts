// The Kubernetes version of an image and what it supports, and resource quantities, as upstream reads them.
import { describe, expect, it } from 'vitest';
import {
  authorizationConfigAPIVersion,
  cloudProviderFlagRemoved,
  versionFromImageRef,
  versionString,
} from '../../../../controllers/k8s/internal/kube-version.js';
import { quantityValue } from '../../../../controllers/k8s/internal/quantity.js';

describe('versionFromImageRef', () => {
  it.each([
    ['registry.k8s.io/kube-apiserver:v1.34.4', '1.34.4'],
    ['example.org/kube-apiserver:v1', '1.0.0'],
    ['localhost:5000/kube-apiserver:1.30', '1.30.0'],
    ['registry.k8s.io/kube-apiserver:v1.35.0-rc.1@sha256:abcd', '1.35.0'],
    // no tag, or a tag that is no version: the newest
    ['localhost:5000/kube-apiserver', '1.99.0'],
    ['registry.k8s.io/kube-apiserver:latest', '1.99.0'],
  ])('%s is %s', (ref, want) => expect(versionString(versionFromImageRef(ref))).toBe(want));

  it('tells what a version supports', () => {
    expect(authorizationConfigAPIVersion(versionFromImageRef('k:v1.29.0'))).toBe(
      'apiserver.config.k8s.io/v1alpha1',
    );
    expect(authorizationConfigAPIVersion(versionFromImageRef('k:v1.30.0'))).toBe(
      'apiserver.config.k8s.io/v1beta1',
    );
    expect(cloudProviderFlagRemoved(versionFromImageRef('k:v1.32.9'))).toBe(false);
    expect(cloudProviderFlagRemoved(versionFromImageRef('k:v1.33.0'))).toBe(true);
  });
});

describe('quantityValue', () => {
  it.each([
    ['512Mi', 512 * 2 ** 20],
    ['2G', 2e9],
    ['1.5Gi', 1.5 * 2 ** 30],
    ['100', 100],
    ['1e3', 1000],
    ['200m', 1],
  ])('%s is %d', (q, want) => expect(quantityValue(q, 'x')).toBe(want));

  it('refuses what is no quantity', () => {
    expect(() => quantityValue('2 GB', 'memory limit')).toThrow('error parsing memory limit');
  });
});
