import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { ResourceOf } from '../../../../src/cosi/resource/typed.js';
import { durableNamespaces, namespaceDir } from '../../../../src/cosi/state/durable/index.js';
import { isNotFound } from '../../../../src/cosi/state/errors.js';
import { newInmemState } from '../../../../src/cosi/state/inmem/index.js';
import { namespaced } from '../../../../src/cosi/state/namespaced.js';
import { wrapCore } from '../../../../src/cosi/state/wrap.js';
import { useHarness } from './fixtures/harness.js';
import { Sample, testRegistry } from './fixtures/resources.js';

const h = useHarness();

describe('namespaceDir', () => {
  it('gives every namespace a distinct, safe directory name', () => {
    const names = ['config', 'network-config', '', '.', '..', 'a/b', 'a%2Fb', 'ü', 'A_b-9'];
    const dirs = names.map(namespaceDir);
    expect(dirs).toEqual([
      'ns-config',
      'ns-network-config',
      'ns-',
      'ns-%2E',
      'ns-%2E%2E',
      'ns-a%2Fb',
      'ns-a%252Fb',
      'ns-%C3%BC',
      'ns-A_b-9',
    ]);
    expect(new Set(dirs).size).toBe(names.length);
  });
});

describe('durableNamespaces', () => {
  it('hands out one store per listed namespace and none for the others', async () => {
    const durable = durableNamespaces({ root: await h.tempDir(), namespaces: ['config'] });
    try {
      const s = durable.storeFor('config');
      expect(s).toBeDefined();
      expect(durable.storeFor('config')).toBe(s);
      expect(durable.storeFor('runtime')).toBeUndefined();
      // A store is bound to its namespace, so a mis-routed write fails instead of landing in the wrong place.
      await expect(s!.put(Sample.new('runtime', 'x'))).rejects.toMatchObject({ code: 'foreign-namespace' });
    } finally {
      await durable.close();
    }
  });

  it('keeps the durable namespaces of a namespaced state across a restart, and only those', async () => {
    const root = await h.tempDir();
    const boot = () => {
      const durable = durableNamespaces({
        root,
        namespaces: ['config', 'secrets'],
        registry: testRegistry(),
      });
      const st = wrapCore(namespaced((ns) => newInmemState({ backingStore: durable.storeFor(ns) })));
      return { durable, st };
    };

    const first = boot();
    for (const ns of ['config', 'secrets', 'runtime']) {
      await first.st.create(Sample.new(ns, 'item', { ns }), { owner: 'ctl' });
    }
    const edit = (r: ResourceOf<typeof Sample>) => {
      r.spec.edited = true;
    };
    await first.st.modify(Sample.new('config', 'item'), edit, { owner: 'ctl' });
    await first.durable.close();
    expect((await readdir(root)).sort()).toEqual(['ns-config', 'ns-secrets']);

    const second = boot();
    try {
      const config = await second.st.get(Sample.pointer('item', 'config'));
      expect(config.spec).toEqual({ ns: 'config', edited: true });
      expect(config.metadata).toMatchObject({ version: 2, owner: 'ctl' });
      expect((await second.st.get(Sample.pointer('item', 'secrets'))).spec).toEqual({ ns: 'secrets' });
      expect(
        isNotFound(await second.st.get(Sample.pointer('item', 'runtime')).catch((e: unknown) => e)),
      ).toBe(true);
    } finally {
      await second.durable.close();
    }
  });
});
