import { describe, expect, it } from 'vitest';
import type { MachineStage } from '../../../../resources/runtime/machine-status.js';
import { allBooted, noDiagnostics } from '../../../../src/api/cluster/checks/boot.js';

const stages = (...a: [string, MachineStage][]) => ({
  answers: a.map(([node, value]) => ({ node, value })),
  failures: [],
});

describe('allBooted (all nodes to finish boot sequence)', () => {
  it('holds when every node is running', () => {
    expect(allBooted(stages(['10.5.0.2', 'running'], ['10.5.0.3', 'running']))).toBeUndefined();
  });

  it('lists the others by stage, in the stages’ order, nodes sorted', () => {
    expect(
      allBooted(
        stages(
          ['10.5.0.4', 'rebooting'],
          ['10.5.0.3', 'booting'],
          ['10.5.0.2', 'running'],
          ['10.5.0.1', 'booting'],
        ),
      ),
    ).toBe('nodes are not running: booting: [10.5.0.1 10.5.0.3], rebooting: [10.5.0.4]');
  });

  it('says which nodes have not told their stage', () => {
    expect(allBooted(stages(['10.5.0.2', 'unknown']))).toBe(
      'nodes have not reported their stage yet: [10.5.0.2]',
    );
  });
});

describe('noDiagnostics', () => {
  it('holds with none, and lists each node’s otherwise', () => {
    expect(noDiagnostics({ answers: [{ node: '10.5.0.2', value: [] }], failures: [] })).toBeUndefined();
    expect(
      noDiagnostics({
        answers: [
          { node: '10.5.0.3', value: ['address is not routable', 'no time sync'] },
          { node: '10.5.0.2', value: ['kubelet certificate expires'] },
        ],
        failures: [],
      }),
    ).toBe(
      'active diagnostics: 10.5.0.2: kubelet certificate expires; 10.5.0.3: address is not routable, no time sync',
    );
  });
});
