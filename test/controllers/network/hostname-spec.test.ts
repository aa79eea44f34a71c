// HostnameSpecController against the kernel: this file's process gets a UTS namespace of its own.

import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { hostnameSpecController, kernelHostname } from '../../../controllers/network/hostname-spec.js';
import {
  ConfigLayer,
  HostnameSpec,
  HostnameStatus,
  NETWORK_NAMESPACE,
} from '../../../resources/network/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { CLONE_NEWUTS, unshare } from '../../../src/sys/namespace.js';
import { requireRoot } from '../../sys/child.js';
import { startRuntime } from '../secrets/env.js';

const domainname = () => readFileSync('/proc/sys/kernel/domainname', 'utf8').trim();

beforeAll(() => {
  requireRoot('setting the hostname');
  unshare(CLONE_NEWUTS);
});

describe('network.HostnameSpecController', () => {
  it('sets the kernel names from the spec, follows a change, and drops the status with the spec', async ({
    signal,
  }) => {
    const env = startRuntime([hostnameSpecController({ apply: kernelHostname })]);
    onTestFinished(env.stop);
    const spec = HostnameSpec.new(NETWORK_NAMESPACE, 'hostname', {
      hostname: 'node-a',
      domainname: 'example.org',
      configLayer: ConfigLayer.Default,
    });
    await env.state.create(spec);
    await assertResource(
      env.state,
      HostnameStatus,
      'hostname',
      (r) => expect(r.spec.hostname).toBe('node-a'),
      {
        signal,
      },
    );
    expect(hostname()).toBe('node-a');
    expect(domainname()).toBe('example.org');

    await env.state.modify(HostnameSpec.new(NETWORK_NAMESPACE, 'hostname'), (r) => {
      r.spec = { ...r.spec, hostname: 'node-b', domainname: '' };
    });
    await assertResource(
      env.state,
      HostnameStatus,
      'hostname',
      (r) => expect(r.spec.hostname).toBe('node-b'),
      {
        signal,
      },
    );
    expect(hostname()).toBe('node-b');

    await env.state.teardown(HostnameSpec.pointer('hostname'));
    await env.state.watchFor(HostnameSpec.pointer('hostname'), { signal, finalizersEmpty: true });
    await assertNoResource(env.state, HostnameStatus, 'hostname', { signal });
    expect(hostname()).toBe('node-b'); // a name is never unset: the next spec replaces it
  });
});
