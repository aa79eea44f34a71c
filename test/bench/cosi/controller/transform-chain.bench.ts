// A five-stage transform chain over 10,000 resources: how long from the last input write until
// every final output has converged.
import { transformController } from '../../../../src/cosi/controller/generic/index.js';
import { silentLogger } from '../../../../src/cosi/controller/logger.js';
import { Runtime } from '../../../../src/cosi/controller/runtime.js';
import { defineResource, type ResourceType } from '../../../../src/cosi/resource/typed.js';
import { newInmemState } from '../../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../../src/cosi/state/wrap.js';
import { figure, group, nowMs } from '../../harness.js';

interface Value {
  value: number;
}

const NS = 'chain';
const STAGES = 5;
const N = 10_000;
const names = ['Sources', 'Ones', 'Twos', 'Threes', 'Fours', 'Fives'];

const stage: ResourceType<Value>[] = names.map((n) =>
  defineResource<Value>({
    type: `${n}.bench.keel.dev`,
    defaultNamespace: NS,
    empty: () => ({ value: 0 }),
    copy: (s) => ({ value: s.value }),
    equal: (a, b) => a.value === b.value,
  }),
);

/** converged resolves once every final output holds its input's value plus STAGES. */
async function converged(
  st: ReturnType<typeof wrapCore>,
  expected: (i: number) => number,
  signal: AbortSignal,
) {
  const last = stage[STAGES]!;
  const w = await st.watchKind({ namespace: NS, type: last.type }, { bootstrapContents: true, signal });
  const good = new Set<string>();
  for await (const ev of w) {
    if (ev.type !== 'created' && ev.type !== 'updated') continue;
    const id = ev.resource.metadata.id;
    const want = expected(Number(id.slice(1)));
    if ((ev.resource.spec as Value).value === want) good.add(id);
    else good.delete(id);
    if (good.size === N) break;
  }
  w.close();
}

await group(
  '5-stage transform chain over 10,000 resources (target: converged ≤ 2 s after the last write)',
  async () => {
    const st = wrapCore(
      newInmemState({ historyInitialCapacity: 8, historyMaxCapacity: 1024, historyGap: 4 }),
    );
    const rt = new Runtime(st, { logger: silentLogger });
    for (let s = 0; s < STAGES; s++) {
      rt.register(
        transformController<Value, Value>({
          name: `bench.Stage${s + 1}Controller`,
          input: stage[s]!,
          output: stage[s + 1]!,
          map: (r) => r.metadata.id,
          transform: (_rt, i, o) => {
            o.spec.value = i.spec.value + 1;
          },
        }),
      );
    }
    const ac = new AbortController();
    const running = rt.run({ signal: ac.signal });

    const initial = converged(st, (i) => i + STAGES, ac.signal);
    for (let i = 0; i < N; i++) await st.create(stage[0]!.new(NS, `r${i}`, { value: i }));
    let t0 = nowMs();
    await initial;
    figure('create 10,000 inputs → 10,000 final outputs', Math.round(nowMs() - t0), 'ms', {
      op: '<=',
      value: 2000,
    });

    const again = converged(st, (i) => i + 1 + STAGES, ac.signal);
    for (let i = 0; i < N; i++) {
      await st.modify(stage[0]!.new(NS, `r${i}`), (r) => {
        r.spec.value = i + 1;
      });
    }
    t0 = nowMs();
    await again;
    figure('update 10,000 inputs → 10,000 final outputs', Math.round(nowMs() - t0), 'ms', {
      op: '<=',
      value: 2000,
    });

    ac.abort();
    await running;
  },
);
