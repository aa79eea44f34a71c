// The runtime's turns: one waiter per turn, and holds that stop them until released or bounded.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { holdTurns, nextTurn } from '../../../../src/cosi/controller/internal/turns.js';
import { settled } from './settled.js';

describe('nextTurn', () => {
  it('lets one waiter go per turn, first come first served', async () => {
    const order: number[] = [];
    const all = [1, 2, 3].map((n) => nextTurn().then(() => order.push(n)));
    await Promise.all(all);
    expect(order).toEqual([1, 2, 3]);
  });
});

describe('holdTurns', () => {
  it('gives no turn while held, and the waiters go once released', async () => {
    const release = holdTurns(60_000);
    const turn = nextTurn();
    expect(await settled(turn)).toBe(false);
    release();
    expect(await settled(turn)).toBe(true);
  });

  it('adds holds up: turns resume when the last one ends', async () => {
    const a = holdTurns(60_000);
    const b = holdTurns(60_000);
    const turn = nextTurn();
    a();
    a(); // a second release of the same hold changes nothing
    expect(await settled(turn)).toBe(false);
    b();
    expect(await settled(turn)).toBe(true);
  });

  it('ends a hold by itself after its bound', async () => {
    holdTurns(50);
    const turn = nextTurn();
    expect(await settled(turn)).toBe(false);
    await sleep(80);
    expect(await settled(turn)).toBe(true);
  });

  it('does not delay a turn asked for after the hold ended', async () => {
    holdTurns(60_000)();
    expect(await settled(nextTurn())).toBe(true);
  });
});
