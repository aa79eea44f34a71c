import { describe, expect, it } from 'vitest';
import { contextsTable, mergeTalosconfig } from '../../../src/cli/commands/config.js';

const ctx = (ep: string, nodes?: string[]) => ({
  endpoints: [ep],
  ...(nodes ? { nodes } : {}),
  ca: '',
  crt: '',
  key: '',
});

describe('config helpers', () => {
  it('lays out contexts sorted by name, current starred', () => {
    const table = contextsTable({
      context: 'b',
      contexts: { b: ctx('2.2.2.2', ['2.2.2.3']), a: ctx('1.1.1.1') },
    });
    // an empty last cell still pads the one before it, as Go's tabwriter does
    expect(table).toBe(
      [
        'CURRENT   NAME   ENDPOINTS   NODES',
        '          a      1.1.1.1     ',
        '*         b      2.2.2.2     2.2.2.3',
      ].join('\n'),
    );
  });

  it('renames clashing contexts with the first free suffix', () => {
    const { merged, renamed } = mergeTalosconfig(
      { context: 'x', contexts: { x: ctx('1'), 'x-1': ctx('2') } },
      { context: 'x', contexts: { x: ctx('3'), y: ctx('4') } },
    );
    expect(renamed).toEqual([['x', 'x-2']]);
    expect(merged.context).toBe('x-2');
    expect(Object.keys(merged.contexts)).toEqual(['x', 'x-1', 'x-2', 'y']);
  });
});
