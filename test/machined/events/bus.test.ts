import { describe, expect, it } from 'vitest';
import { EventBus } from '../../../src/machined/events/bus.js';
import { EventsError, isOverrun } from '../../../src/machined/events/errors.js';
import { type MachineEvent, type TaskEvent, typeUrl } from '../../../src/machined/events/event.js';

const taskEv = (task: string): TaskEvent => ({ type: 'machine.TaskEvent', task, action: 'START' });
const names = (evs: MachineEvent[]) => evs.map((e) => (e.payload as TaskEvent).task);

/** take collects n events from a watch, then stops it. */
async function take(bus: EventBus, n: number, opts: Omit<Parameters<EventBus['watch']>[0], 'signal'>) {
  const ac = new AbortController();
  const out: MachineEvent[] = [];
  if (n === 0) return out;
  for await (const ev of bus.watch({ ...opts, signal: ac.signal })) {
    out.push(ev);
    if (out.length === n) ac.abort();
  }
  return out;
}

describe('EventBus', () => {
  it('gives each event an id, the actor and a type URL', () => {
    const bus = new EventBus();
    const ev = bus.publish(taskEv('a'), { actorId: 'req-1' });
    expect(ev.id).toMatch(/^[0-9a-v]{20}$/);
    expect(ev.actorId).toBe('req-1');
    expect(typeUrl(ev.payload)).toBe('talos/runtime/machine.TaskEvent');
  });

  it('replays the last n events, or all kept with -1, then follows', async () => {
    const bus = new EventBus({ capacity: 3 });
    for (const t of ['a', 'b', 'c', 'd']) bus.publish(taskEv(t));
    expect(names(await take(bus, 2, { tailEvents: 2 }))).toEqual(['c', 'd']);
    expect(names(await take(bus, 3, { tailEvents: -1 }))).toEqual(['b', 'c', 'd']);
    const live = take(bus, 2, { tailEvents: 1 });
    bus.publish(taskEv('e'));
    expect(names(await live)).toEqual(['d', 'e']);
  });

  it('tails after an id, by age, and filters by actor', async () => {
    let now = 1_000_000;
    const bus = new EventBus({ now: () => now });
    bus.publish(taskEv('old'));
    now += 60_000;
    const mark = bus.publish(taskEv('mark'), { actorId: 'x' });
    bus.publish(taskEv('after'));
    bus.publish(taskEv('mine'), { actorId: 'x' });
    expect(names(await take(bus, 2, { tailId: mark.id }))).toEqual(['after', 'mine']);
    expect(names(await take(bus, 3, { tailSeconds: 30 }))).toEqual(['mark', 'after', 'mine']);
    expect(names(await take(bus, 2, { tailEvents: -1, actorId: 'x' }))).toEqual(['mark', 'mine']);
    await expect(take(bus, 1, { tailId: 'nope' })).rejects.toBeInstanceOf(EventsError);
  });

  it('ends a watch quietly on abort', async () => {
    const bus = new EventBus();
    const ac = new AbortController();
    const seen: MachineEvent[] = [];
    const done = (async () => {
      for await (const ev of bus.watch({ signal: ac.signal })) seen.push(ev);
    })();
    bus.publish(taskEv('a'));
    ac.abort();
    await done;
    expect(seen.length).toBeLessThanOrEqual(1);
  });

  it('reports an overrun to a watcher that fell a whole capacity behind', async () => {
    const bus = new EventBus({ capacity: 2 });
    const it = bus.watch({ signal: new AbortController().signal, tailEvents: 0 })[Symbol.asyncIterator]();
    const first = it.next();
    bus.publish(taskEv('a'));
    expect(names([(await first).value as MachineEvent])).toEqual(['a']);
    for (const t of ['b', 'c', 'd']) bus.publish(taskEv(t));
    const err = await it.next().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isOverrun(err)).toBe(true);
  });
});
