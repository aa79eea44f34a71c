import { appendFile, copyFile, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Metadata } from '../../../../src/cosi/resource/metadata.js';
import { OpaqueResource } from '../../../../src/cosi/resource/opaque.js';
import { ResourceRegistry } from '../../../../src/cosi/resource/registry.js';
import type { Resource } from '../../../../src/cosi/resource/resource.js';
import { encodeFrame, scanFrames } from '../../../../src/cosi/state/durable/frame.js';
import { type DurableStore, DurableStoreError } from '../../../../src/cosi/state/durable/index.js';
import { encodePut } from '../../../../src/cosi/state/durable/record.js';
import { useHarness } from './fixtures/harness.js';
import { Sample, Unlisted } from './fixtures/resources.js';

const h = useHarness();

const LOG0 = 'log.0000000000';
const logFile = (gen: number) => `log.${String(gen).padStart(10, '0')}`;

const sample = (id: string, spec: Record<string, unknown>, version = 1) => {
  const r = Sample.new('persistent', id, spec);
  r.metadata.version = version;
  return r;
};

const contents = async (s: DurableStore): Promise<Map<string, Resource>> => {
  const out = new Map<string, Resource>();
  await s.load((r) => out.set(r.metadata.id, r));
  return out;
};

/** id → [version, spec] of what a store loads */
const summary = async (s: DurableStore) =>
  Object.fromEntries([...(await contents(s))].map(([id, r]) => [id, [r.metadata.version, r.spec]]));

const rejection = async (p: Promise<unknown>): Promise<DurableStoreError> => {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(DurableStoreError);
  return e as DurableStoreError;
};

describe('durable store', () => {
  it('loads what was put, updated and destroyed, after close and reopen', async () => {
    const dir = await h.tempDir();
    const a = h.store({ dir });
    await a.load(() => {});
    await a.put(sample('x', { n: 1 }));
    await a.put(sample('y', { n: 2 }));
    await a.put(sample('x', { n: 3 }, 2));
    await a.destroy(Sample.pointer('y'));
    await a.put(sample('z', { bytes: new Uint8Array([1, 2]) }));
    expect(await summary(a)).toEqual({ x: [2, { n: 3 }], z: [1, { bytes: new Uint8Array([1, 2]) }] });
    await a.close();

    const b = h.store({ dir });
    expect(await summary(b)).toEqual({ x: [2, { n: 3 }], z: [1, { bytes: new Uint8Array([1, 2]) }] });
    expect(b.info()).toMatchObject({ opened: true, resources: 2, logRecords: 5, generation: 0 });
    expect(b.info().recovered).toBeUndefined();
  });

  it('has every resolved write on disk without a close', async () => {
    const dir = await h.tempDir();
    const a = h.store({ dir });
    await Promise.all([a.put(sample('x', { n: 1 })), a.put(sample('y', { n: 2 }))]);
    await a.destroy(Sample.pointer('x'));
    // A second reader sees the files exactly as a crash right now would leave them.
    const b = h.store({ dir });
    expect(await summary(b)).toEqual({ y: [1, { n: 2 }] });
  });

  it('group-commits concurrent writes and keeps their order', async () => {
    const dir = await h.tempDir();
    const s = h.store({ dir });
    await s.load(() => {});
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 200; i++) writes.push(s.put(sample(`r${i % 10}`, { i }, i + 1)));
    writes.push(s.destroy(Sample.pointer('r3')));
    writes.push(s.put(sample('r3', { i: 'again' }, 500)));
    await Promise.all(writes);
    const log = await readFile(join(dir, LOG0));
    const frames = scanFrames(log, 8, LOG0, 'sealed').frames;
    expect(frames.flatMap((f) => f.records)).toHaveLength(202);
    expect(frames.length).toBeLessThan(202);
    const reopened = await summary(h.store({ dir }));
    expect(reopened.r9).toEqual([200, { i: 199 }]);
    expect(reopened.r3).toEqual([500, { i: 'again' }]);
  });

  it('cuts an unfinished write off the log tail, reports it, and appends cleanly after it', async () => {
    const dir = await h.tempDir();
    const a = h.store({ dir });
    await a.put(sample('x', { n: 1 }));
    await a.close();
    const committed = (await stat(join(dir, LOG0))).size;
    // Half of a frame, as a crash in the middle of a write leaves it.
    const frame = encodeFrame([encodePut(sample('y', { n: 2 }))]);
    await appendFile(join(dir, LOG0), frame.subarray(0, frame.length - 7));

    const b = h.store({ dir });
    expect(await summary(b)).toEqual({ x: [1, { n: 1 }] });
    expect(b.info().recovered).toEqual({
      file: join(dir, LOG0),
      offset: committed,
      bytes: frame.length - 7,
      reason: expect.stringContaining('cut'),
    });
    expect((await stat(join(dir, LOG0))).size).toBe(committed);
    await b.put(sample('z', { n: 3 }));
    await b.close();

    const c = h.store({ dir });
    expect(await summary(c)).toEqual({ x: [1, { n: 1 }], z: [1, { n: 3 }] });
    expect(c.info().recovered).toBeUndefined();
  });

  it('fails loudly, naming the file and offset, on damage before the log tail', async () => {
    const dir = await h.tempDir();
    const a = h.store({ dir });
    await a.put(sample('x', { n: 1 }));
    await a.put(sample('y', { n: 2 }));
    await a.close();
    const file = join(dir, LOG0);
    const buf = await readFile(file);
    buf[8 + 12 + 20]! ^= 0x20; // inside the first frame's payload
    await writeFile(file, buf);

    const b = h.store({ dir });
    const e = await rejection(b.load(() => {}));
    expect(e).toMatchObject({ code: 'corrupt', file, offset: 8 });
    expect(e.message).toBe(`corrupt durable store file ${file} at offset 8: bad frame checksum`);
    // Every later operation reports the same damage instead of writing over the evidence.
    const again = await rejection(b.put(sample('z', { n: 3 })));
    expect({ ...again, message: again.message }).toEqual({ ...e, message: e.message });
    expect(await readFile(file)).toEqual(buf);
  });

  it('fails loudly on a damaged snapshot and on a log of the wrong kind', async () => {
    const dir = await h.tempDir();
    const a = h.store({ dir });
    await a.put(sample('x', { n: 1 }));
    await a.compact();
    await a.close();
    const snap = join(dir, 'snapshot');
    const good = await readFile(snap);
    await writeFile(snap, good.subarray(0, good.length - 1));
    expect(await rejection(h.store({ dir }).load(() => {}))).toMatchObject({ code: 'corrupt', file: snap });

    await writeFile(snap, good);
    await writeFile(join(dir, logFile(1)), 'hello, world');
    expect(await rejection(h.store({ dir }).load(() => {}))).toMatchObject({
      code: 'corrupt',
      file: join(dir, logFile(1)),
      offset: 0,
      message: expect.stringContaining('bad magic'),
    });
  });

  it('compacts into a snapshot that preserves every resource and its metadata', async () => {
    const dir = await h.tempDir();
    const s = h.store({ dir });
    for (let i = 0; i < 30; i++) await s.put(sample(`r${i % 7}`, { i, at: new Date(i) }, i + 1));
    await s.destroy(Sample.pointer('r2'));
    const torn = sample('t', { n: 0 });
    torn.metadata.phase = 'tearingDown';
    torn.metadata.finalizers.add('keep');
    torn.metadata.labels.set('l', 'v');
    torn.metadata.annotations.set('a', 'b');
    await s.put(torn);
    const before = await contents(s);

    await s.compact();
    expect(s.info()).toMatchObject({ generation: 1, snapshotGeneration: 1, compactions: 1, logRecords: 0 });
    expect((await readdir(dir)).sort()).toEqual([logFile(1), 'snapshot']);
    await s.put(sample('after', { n: 1 }));
    await s.close();

    const again = h.store({ dir });
    const after = await contents(again);
    expect([...after.keys()].sort()).toEqual([...before.keys(), 'after'].sort());
    for (const [id, r] of before) {
      const b = after.get(id)!;
      expect(b.metadata.equal(r.metadata), id).toBe(true);
      expect([b.metadata.created, b.metadata.updated]).toEqual([r.metadata.created, r.metadata.updated]);
      expect(b.spec).toStrictEqual(r.spec);
    }
    expect(after.get('t')!.metadata.finalizers.list()).toEqual(['keep']);
  });

  it('compacts by itself every compactEvery records, and at open when the log is long', async () => {
    const dir = await h.tempDir();
    const s = h.store({ dir, compactEvery: 10 });
    for (let i = 0; i < 35; i++) await s.put(sample(`r${i % 4}`, { i }, i + 1));
    await s.close(); // waits for a compaction still running
    expect(s.info().compactions).toBeGreaterThanOrEqual(1);
    const files = await readdir(dir);
    expect(files).toContain('snapshot');
    expect(files.filter((f) => f.startsWith('log.'))).toHaveLength(1);
    expect(await summary(h.store({ dir }))).toEqual({
      r0: [33, { i: 32 }],
      r1: [34, { i: 33 }],
      r2: [35, { i: 34 }],
      r3: [32, { i: 31 }],
    });

    const dir2 = await h.tempDir();
    const long = h.store({ dir: dir2 });
    for (let i = 0; i < 12; i++) await long.put(sample(`r${i}`, { i }));
    await long.close();
    const opened = h.store({ dir: dir2, compactEvery: 10 });
    expect(Object.keys(await summary(opened))).toHaveLength(12);
    await opened.close();
    expect(opened.info()).toMatchObject({ compactions: 1, snapshotGeneration: 1 });
  });

  it('runs overlapping compactions one at a time while writes go on', async () => {
    const dir = await h.tempDir();
    const s = h.store({ dir });
    await s.put(sample('a', { n: 1 }));
    const writes: Promise<void>[] = [];
    const compactions = [s.compact(), s.compact()];
    for (let i = 0; i < 20; i++) writes.push(s.put(sample(`w${i}`, { i })));
    compactions.push(s.compact());
    await Promise.all([...compactions, ...writes]);
    // Requests made before the same rotation share it; each one still covers every earlier write.
    const { generation, snapshotGeneration, compactions: done } = s.info();
    expect(snapshotGeneration).toBe(generation);
    expect(done).toBe(generation);
    expect((await readdir(dir)).sort()).toEqual([logFile(generation), 'snapshot']);
    await s.close();
    expect(Object.keys(await summary(h.store({ dir })))).toHaveLength(21);
  });

  it('compacts during a steady stream of writes, not only once it stops', async () => {
    const dir = await h.tempDir();
    const s = h.store({ dir, compactEvery: 100 });
    await s.load(() => {});
    let written = 0;
    let generationWhileWriting = 0;
    const writer = async () => {
      while (written < 2000) {
        const i = written++;
        await s.put(sample(`r${i % 50}`, { i }, i + 1));
        generationWhileWriting = Math.max(generationWhileWriting, s.info().generation);
      }
    };
    await Promise.all(Array.from({ length: 16 }, writer));
    expect(generationWhileWriting).toBeGreaterThanOrEqual(2);
    await s.close();
    expect(Object.keys(await summary(h.store({ dir })))).toHaveLength(50);
  });

  it('recovers from a compaction interrupted at any step', async () => {
    const dir = await h.tempDir();
    const spare = await h.tempDir();
    const a = h.store({ dir });
    await a.put(sample('x', { n: 1 }));
    await a.put(sample('y', { n: 1 }));
    await a.close();
    await copyFile(join(dir, LOG0), join(spare, LOG0));
    const b = h.store({ dir });
    await b.compact();
    await b.put(sample('x', { n: 2 }, 2));
    await b.destroy(Sample.pointer('y'));
    await b.close();
    const expected = { x: [2, { n: 2 }] };

    // Crashed after renaming the snapshot, before unlinking the log it replaced (plus a stray temp file).
    await copyFile(join(spare, LOG0), join(dir, LOG0));
    await writeFile(join(dir, 'snapshot.tmp'), 'half a snapshot');
    const c = h.store({ dir });
    expect(await summary(c)).toEqual(expected);
    await c.close();
    expect((await readdir(dir)).sort()).toEqual([logFile(1), 'snapshot']);

    // Crashed after starting the new log, before the snapshot existed: both logs replay in order.
    await copyFile(join(spare, LOG0), join(dir, LOG0));
    await rm(join(dir, 'snapshot'));
    const d = h.store({ dir });
    expect(await summary(d)).toEqual(expected);
    expect(d.info()).toMatchObject({ generation: 1, snapshotGeneration: 0, logRecords: 4 });
    await d.compact();
    await d.close();
    expect((await readdir(dir)).sort()).toEqual([logFile(2), 'snapshot']);
    expect(await summary(h.store({ dir }))).toEqual(expected);
  });

  it('refuses to replay across a missing log', async () => {
    const dir = await h.tempDir();
    const a = h.store({ dir });
    await a.put(sample('x', { n: 1 }));
    await a.close();
    await copyFile(join(dir, LOG0), join(dir, logFile(2)));
    expect(await rejection(h.store({ dir }).load(() => {}))).toMatchObject({
      code: 'corrupt',
      file: join(dir, logFile(2)),
      message: expect.stringContaining(`${logFile(1)} is missing`),
    });
  });

  it('loads a type missing from the registry as an opaque resource', async () => {
    const dir = await h.tempDir();
    const a = h.store({ dir });
    const u = Unlisted.new('persistent', 'u', { name: 'n', size: 5n });
    u.metadata.version = 1;
    await a.put(u);
    await a.put(
      new OpaqueResource(new Metadata('persistent', 'Remotes.example.org', 'o', { version: 4 }), {
        protoSpec: new Uint8Array([1, 2]),
        yamlSpec: 'k: v\n',
      }),
    );
    await a.close();
    const loaded = await contents(h.store({ dir, registry: new ResourceRegistry() }));
    expect(loaded.get('u')).toBeInstanceOf(OpaqueResource);
    expect((loaded.get('u') as OpaqueResource).spec.yamlSpec).toBe('name: n\nsize: 5\n');
    expect((loaded.get('o') as OpaqueResource).spec).toStrictEqual({
      protoSpec: new Uint8Array([1, 2]),
      yamlSpec: 'k: v\n',
    });
  });

  it('refuses unencodable resources, other namespaces, aborted calls and a closed store without writing', async () => {
    const dir = await h.tempDir();
    const s = h.store({ dir, namespace: 'persistent' });
    await s.put(sample('x', { n: 1 }));
    expect(await rejection(s.put(sample('bad', { s: new Set() })))).toMatchObject({ code: 'unencodable' });
    const other = Sample.new('elsewhere', 'x');
    expect(await rejection(s.put(other))).toMatchObject({ code: 'foreign-namespace' });
    expect(await rejection(s.destroy(other.metadata))).toMatchObject({ code: 'foreign-namespace' });
    const ac = new AbortController();
    ac.abort(new Error('stop'));
    await expect(s.put(sample('y', { n: 1 }), { signal: ac.signal })).rejects.toThrow('stop');
    await expect(s.load(() => {}, { signal: ac.signal })).rejects.toThrow('stop');
    expect(s.info().logRecords).toBe(1);

    await s.close();
    await s.close();
    expect(await rejection(s.put(sample('z', { n: 1 })))).toMatchObject({ code: 'closed' });
    expect(await rejection(s.load(() => {}))).toMatchObject({ code: 'closed' });
    expect(Object.keys(await summary(h.store({ dir })))).toEqual(['x']);
  });

  it('creates its directory, nested levels included', async () => {
    const dir = join(await h.tempDir(), 'a', 'b', 'c');
    const s = h.store({ dir });
    await s.put(sample('x', { n: 1 }));
    expect(await readdir(dir)).toEqual([LOG0]);
  });

  it('retries a failed open at the next call, so a passing fault heals', async () => {
    const parent = await h.tempDir();
    const dir = join(parent, 'store');
    await writeFile(dir, 'not a directory yet');
    const s = h.store({ dir });
    await expect(s.put(sample('x', { n: 1 }))).rejects.toMatchObject({ code: 'EEXIST' });
    await rm(dir);
    await s.put(sample('x', { n: 1 }));
    expect(Object.keys(await summary(s))).toEqual(['x']);
  });

  it('rejects a compactEvery that is not a positive integer', () => {
    expect(() => h.store({ dir: 'unused', compactEvery: 0 })).toThrow(RangeError);
    expect(() => h.store({ dir: 'unused', compactEvery: 1.5 })).toThrow(RangeError);
  });
});
