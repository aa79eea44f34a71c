// The node's META: its tags mirrored as MetaKey resources, changed through the API (MetaWrite/MetaDelete).
// Until the META partition is found (a live boot from the ISO has none) values are held in memory, as
// upstream's; attaching the partition merges them onto what it holds, and from then on every change is
// flushed to it.
import {
  META_LOADED_ID,
  MetaKey,
  MetaLoaded,
  metaKeyId,
  RUNTIME_NAMESPACE,
} from '../../../resources/runtime/index.js';
import { isNotFound } from '../../cosi/state/errors.js';
import type { State } from '../../cosi/state/state.js';
import { checkWritableTag, type MetaStore, openMeta } from '../../sys/block/meta/index.js';

export const META_OWNER = 'machined.MetaHost';

export interface MetaHost {
  /** the partition the tags live on, once attached */
  readonly path: string | undefined;
  /** attach reads the partition, keeps values set before it, and flushes them onto it */
  attach(path: string, opts?: { signal?: AbortSignal }): Promise<void>;
  /** loaded marks META as read (MetaLoaded), also when there is no partition to read */
  loaded(): Promise<void>;
  /** set stores a tag (MetaError 'bad-tag' or 'too-large' when it cannot) and flushes it when attached */
  set(tag: number, value: Uint8Array): Promise<void>;
  /** delete forgets a tag; false when it was not there */
  delete(tag: number): Promise<boolean>;
  get(tag: number): Buffer | undefined;
}

export function metaHost(state: State, log: (line: string) => void): MetaHost {
  let store: MetaStore | undefined;
  // before a partition is attached: the tags set so far
  const early = new Map<number, Buffer>();
  // one change at a time: a set racing an attach must not be lost between the two
  let turn: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = turn.then(fn);
    turn = next.catch(() => undefined);
    return next;
  };

  const tags = (): ReadonlyMap<number, Buffer> => store?.tags ?? early;

  const mirror = async (tag: number, value: Buffer | undefined) => {
    const ptr = MetaKey.pointer(metaKeyId(tag), RUNTIME_NAMESPACE);
    if (value === undefined) {
      await state.destroy(ptr, { owner: META_OWNER }).catch((e: unknown) => {
        if (!isNotFound(e)) throw e;
      });
      return;
    }
    await state.modify(
      MetaKey.new(RUNTIME_NAMESPACE, metaKeyId(tag), { value: '' }),
      (r) => {
        r.spec = { value: value.toString('utf8') };
      },
      { owner: META_OWNER },
    );
  };

  /** sync makes the MetaKey resources exactly the tags held now. */
  const sync = async () => {
    const held = tags();
    for (const [tag, value] of held) await mirror(tag, value);
    const listed = await state.list({ namespace: RUNTIME_NAMESPACE, type: MetaKey.type });
    for (const r of listed) {
      const tag = Number.parseInt(r.metadata.id.slice(2), 16);
      if (!held.has(tag)) await mirror(tag, undefined);
    }
  };

  return {
    get path() {
      return store?.path;
    },
    attach: (path, opts = {}) =>
      serial(async () => {
        const opened = await openMeta(path, opts.signal ? { signal: opts.signal } : {});
        for (const [tag, value] of early) opened.set(tag, value);
        early.clear();
        store = opened;
        if (await opened.flush(opts.signal ? { signal: opts.signal } : {}))
          log(`META: saved ${opened.tags.size} keys on ${path}`);
        log(`META: loaded ${opened.tags.size} keys from ${path} (${opened.source})`);
        await sync();
      }),
    loaded: () =>
      serial(async () => {
        await state.modify(
          MetaLoaded.new(RUNTIME_NAMESPACE, META_LOADED_ID, { done: true }),
          (r) => {
            r.spec = { done: true };
          },
          { owner: META_OWNER },
        );
      }),
    set: (tag, value) =>
      serial(async () => {
        checkWritableTag(tag);
        const bytes = Buffer.from(value);
        if (store) {
          store.set(tag, bytes);
          await store.flush();
        } else {
          // the partition's own limits are checked once it is attached; memory holds what the API speaks
          early.set(tag, bytes);
        }
        await mirror(tag, bytes);
      }),
    delete: (tag) =>
      serial(async () => {
        checkWritableTag(tag);
        let had: boolean;
        if (store) {
          had = store.delete(tag);
          if (had) await store.flush();
        } else {
          had = early.delete(tag);
        }
        if (had) await mirror(tag, undefined);
        return had;
      }),
    get: (tag) => tags().get(tag),
  };
}
