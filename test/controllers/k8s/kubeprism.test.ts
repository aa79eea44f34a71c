// KubePrism on the real runtime: it listens where its config says, balances over real TCP upstreams on
// free loopback ports, publishes its status, moves when the port changes, stops with the config, and
// retries with backoff while its port is taken.
import { createServer } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { KubePrismController } from '../../../controllers/k8s/kubeprism.js';
import {
  KUBEPRISM_CONFIG_ID,
  KUBEPRISM_STATUSES_ID,
  KubePrismConfig,
  type KubePrismEndpoint,
  KubePrismStatuses,
} from '../../../resources/k8s/index.js';
import { freePort } from '../../../scripts/lib/free-port.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { exchange, first, named } from '../../sys/loadbalancer/servers.js';
import { startRuntime } from '../secrets/env.js';

const local = (port: number): KubePrismEndpoint => ({ host: '127.0.0.1', port });

describe('k8s.KubePrismController', () => {
  it('runs the balancer while configured, publishing where it listens and whether it is healthy', async ({
    signal,
  }) => {
    const env = startRuntime([KubePrismController]);
    onTestFinished(env.stop);
    const a = await named('a');
    const port = await freePort();
    const status = (host: string, healthy: boolean) =>
      assertResource(
        env.state,
        KubePrismStatuses,
        KUBEPRISM_STATUSES_ID,
        (r) => {
          expect(r.metadata.namespace).toBe('k8s');
          expect(r.metadata.owner).toBe('k8s.KubePrismController');
          expect(r.spec).toEqual({ host, healthy });
        },
        { signal },
      );
    const configure = (port: number, endpoints: KubePrismEndpoint[]) =>
      env.state.modify(KubePrismConfig.new('k8s', KUBEPRISM_CONFIG_ID), (r) => {
        r.spec = { host: '127.0.0.1', port, endpoints };
      });

    await configure(port, [local(a.port)]);
    await status(`127.0.0.1:${port}`, true);
    expect(await exchange(port, 'hi')).toBe('a\nhi');

    // the endpoints change in place: no upstream left is unhealthy, a connection is closed at once
    await configure(port, []);
    await status(`127.0.0.1:${port}`, false);
    expect(await exchange(port)).toBe('');

    // a new port restarts it there
    const moved = await freePort();
    await configure(moved, [local(a.port)]);
    await status(`127.0.0.1:${moved}`, true);
    expect(await first(moved)).toBe('a');
    await expect(exchange(port)).rejects.toThrow('ECONNREFUSED');

    // no config, no balancer and no status
    await env.state.destroy(KubePrismConfig.pointer(KUBEPRISM_CONFIG_ID));
    await assertNoResource(env.state, KubePrismStatuses, KUBEPRISM_STATUSES_ID, { signal });
    await expect(exchange(moved)).rejects.toThrow('ECONNREFUSED');
  });

  it('retries while its port is taken, and stops listening when the controller stops', async ({ signal }) => {
    const env = startRuntime([KubePrismController]);
    onTestFinished(env.stop);
    const a = await named('a');
    const port = await freePort();
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => squatter.close(() => resolve())));

    await env.state.create(
      KubePrismConfig.new('k8s', KUBEPRISM_CONFIG_ID, {
        host: '127.0.0.1',
        port,
        endpoints: [local(a.port)],
      }),
    );
    expect(await env.state.list({ namespace: 'k8s', type: KubePrismStatuses.type })).toEqual([]);
    await new Promise<void>((resolve) => squatter.close(() => resolve()));
    await assertResource(
      env.state,
      KubePrismStatuses,
      KUBEPRISM_STATUSES_ID,
      (r) => expect(r.spec).toEqual({ host: `127.0.0.1:${port}`, healthy: true }),
      { signal },
    );
    expect(await first(port)).toBe('a');
    await env.stop();
    await expect(exchange(port)).rejects.toThrow('ECONNREFUSED');
  });
});
