import { describe, expect, it } from 'vitest';
import { EventBus } from '../../../src/machined/events/bus.js';
import type { MachineEvent } from '../../../src/machined/events/event.js';
import { isCanceled, isLocked, SequencerError } from '../../../src/machined/sequencer/errors.js';
import { type Phase, phase, type SequenceTable, task } from '../../../src/machined/sequencer/phase.js';
import { Sequencer } from '../../../src/machined/sequencer/sequencer.js';

/** gate is a promise the test opens by hand. */
const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
};

/** waitAborted resolves when the signal aborts, rejecting with its reason, as a well-behaved task does. */
const waitAborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

const brief = (e: MachineEvent): string => {
  const p = e.payload;
  switch (p.type) {
    case 'machine.SequenceEvent':
      return `seq ${p.sequence} ${p.action}${p.error ? ` ${p.error.code}` : ''}`;
    case 'machine.PhaseEvent':
      return `phase ${p.phase} ${p.action}`;
    case 'machine.TaskEvent':
      return `task ${p.task} ${p.action}`;
    default:
      return p.type;
  }
};

const setup = (sequences: SequenceTable) => {
  const events = new EventBus();
  const lines: string[] = [];
  const seq = new Sequencer({ events, sequences, log: (l) => lines.push(l) });
  return { events, lines, seq, briefs: () => events.history().map(brief) };
};

describe('Sequencer', () => {
  it('runs phases in order and publishes sequence, phase and task events in order', async () => {
    const order: string[] = [];
    const t = (name: string) => task(name, () => void order.push(name));
    const { seq, briefs, lines } = setup({ boot: () => [phase('one', t('a')), phase('two', t('b'))] });
    await seq.run('boot', { actorId: 'actor-1' });
    expect(order).toEqual(['a', 'b']);
    expect(briefs()).toEqual([
      'seq boot START',
      'phase one START',
      'task a START',
      'task a STOP',
      'phase one STOP',
      'phase two START',
      'task b START',
      'task b STOP',
      'phase two STOP',
      'seq boot STOP',
    ]);
    expect(lines[0]).toBe('boot sequence: 2 phase(s)');
    expect(lines).toContain('task a (1/1): starting');
    expect(lines.some((l) => /^task b \(1\/1\): done, [\d.]+(µs|ms|s)$/.test(l))).toBe(true);
    expect(lines.some((l) => /^phase two \(2\/2\): done, /.test(l))).toBe(true);
    expect(lines.at(-1)).toMatch(/^boot sequence: done: /);
  });

  it('runs the tasks of one phase concurrently, and the next phase only after all of them', async () => {
    // each task waits until all three have started: this finishes only if they overlap
    let started = 0;
    const all = gate();
    const trace: string[] = [];
    const t = (name: string) =>
      task(name, async () => {
        trace.push(`${name}:start`);
        if (++started === 3) all.open();
        await all.opened;
        trace.push(`${name}:end`);
      });
    const { seq } = setup({
      boot: () => [
        phase('together', t('a'), t('b'), t('c')),
        phase(
          'after',
          task('d', () => void trace.push('d')),
        ),
      ],
    });
    await seq.run('boot');
    expect(trace.slice(0, 3).sort()).toEqual(['a:start', 'b:start', 'c:start']);
    expect(trace.at(-1)).toBe('d');
  });

  it('starts each phase in a turn of the event loop of its own, its tasks together', async () => {
    const order: string[] = [];
    const { seq } = setup({
      boot: () => [
        phase(
          'a',
          task('a1', () => {
            order.push('a1');
            // I/O that comes in while phase a runs is served before phase b starts
            setImmediate(() => order.push('io'));
          }),
          task('a2', () => void order.push('a2')),
        ),
        phase(
          'b',
          task('b1', () => void order.push('b1')),
        ),
      ],
    });
    await seq.run('boot');
    expect(order).toEqual(['a1', 'a2', 'io', 'b1']);
  });

  it('stops at a failed task, cancels its siblings and reports FATAL', async () => {
    let siblingSaw: unknown;
    const { seq, briefs } = setup({
      boot: () => [
        phase(
          'p',
          task('bad', () => {
            throw new Error('boom');
          }),
          task('sibling', async ({ signal }) => {
            siblingSaw = await waitAborted(signal).catch((e: unknown) => e);
          }),
        ),
        phase(
          'never',
          task('x', () => {}),
        ),
      ],
    });
    const err = await seq.run('boot').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SequencerError);
    expect((err as SequencerError).code).toBe('failed');
    expect((err as Error).message).toContain('boom');
    expect((siblingSaw as Error).message).toBe('boom');
    expect(briefs()).not.toContain('phase never START');
    expect(briefs().at(-1)).toBe('seq boot NOOP FATAL');
  });

  it('skips a phase whose check is false', async () => {
    const ran: string[] = [];
    const skipped: Phase = { name: 'maybe', tasks: [task('m', () => void ran.push('m'))], when: () => false };
    const { seq, lines } = setup({
      boot: () => [
        skipped,
        phase(
          'always',
          task('a', () => void ran.push('a')),
        ),
      ],
    });
    await seq.run('boot');
    expect(ran).toEqual(['a']);
    expect(lines).toContain('phase maybe (1/2): skipped');
  });

  it('answers LOCKED when the running sequence may not be cancelled', async () => {
    const hold = gate();
    const entered = gate();
    const { seq, briefs } = setup({
      boot: () => [
        phase(
          'p',
          task('hold', async () => {
            entered.open();
            await hold.opened;
          }),
        ),
      ],
      shutdown: () => [],
    });
    const boot = seq.run('boot');
    await entered.opened;
    const err = await seq.run('shutdown', { actorId: 'a' }).catch((e: unknown) => e);
    expect(isLocked(err)).toBe(true);
    expect(briefs()).toContain('seq shutdown NOOP LOCKED');
    expect(seq.running()).toBe('boot');
    hold.open();
    await boot;
    expect(seq.running()).toBeUndefined();
  });

  it('lets reboot take over boot: boot is cancelled, then reboot runs', async () => {
    const entered = gate();
    const { seq, briefs } = setup({
      boot: () => [
        phase(
          'wait',
          task('forever', async ({ signal }) => {
            entered.open();
            await waitAborted(signal);
          }),
        ),
      ],
      reboot: () => [
        phase(
          'reboot',
          task('reboot', () => {}),
        ),
      ],
    });
    const boot = seq.run('boot').catch((e: unknown) => e);
    await entered.opened;
    await seq.run('reboot');
    expect(isCanceled(await boot)).toBe(true);
    const b = briefs();
    expect(b).toContain('seq boot NOOP CANCELED');
    expect(b.indexOf('seq boot STOP')).toBeLessThan(b.indexOf('seq reboot START'));
  });

  it('fails a takeover whose victim does not unwind in time, and keeps the victim as the running one', async () => {
    const entered = gate();
    const release = gate();
    const events = new EventBus();
    const seq = new Sequencer({
      events,
      takeoverTimeoutMs: 10,
      sequences: {
        boot: () => [
          phase(
            'p',
            task('deaf', async () => {
              entered.open();
              await release.opened; // ignores its signal
            }),
          ),
        ],
        reboot: () => [],
      },
    });
    const boot = seq.run('boot').catch((e: unknown) => e);
    await entered.opened;
    const err = await seq.run('reboot').catch((e: unknown) => e);
    expect((err as SequencerError).code).toBe('takeover-timeout');
    expect(seq.running()).toBe('boot');
    release.open();
    await boot;
    expect(seq.running()).toBeUndefined();
  });

  it('force cancels a sequence that the rules would protect', async () => {
    const entered = gate();
    const { seq } = setup({
      upgrade: () => [
        phase(
          'u',
          task('long', async ({ signal }) => {
            entered.open();
            await waitAborted(signal);
          }),
        ),
      ],
      shutdown: () => [],
    });
    const up = seq.run('upgrade').catch((e: unknown) => e);
    await entered.opened;
    await seq.run('shutdown', { force: true });
    expect(isCanceled(await up)).toBe(true);
  });

  it('refuses a sequence it has no phases for', async () => {
    const { seq } = setup({});
    const err = await seq.run('install').catch((e: unknown) => e);
    expect((err as SequencerError).code).toBe('unsupported');
  });

  it('ends as CANCELED when its caller aborts', async () => {
    const ac = new AbortController();
    const entered = gate();
    const { seq, briefs } = setup({
      boot: () => [
        phase(
          'p',
          task('t', async ({ signal }) => {
            entered.open();
            await waitAborted(signal);
          }),
        ),
      ],
    });
    const run = seq.run('boot', { signal: ac.signal }).catch((e: unknown) => e);
    await entered.opened;
    ac.abort();
    expect(isCanceled(await run)).toBe(true);
    expect(briefs().at(-1)).toBe('seq boot NOOP CANCELED');
  });
});
