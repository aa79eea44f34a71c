// "all nodes to finish boot sequence" and "no diagnostics": upstream's AllNodesBootedAssertion and
// NoDiagnostics over each node's machine status and diagnostics.
import { MACHINE_STAGES, type MachineStage } from '../../../../resources/runtime/machine-status.js';
import { plainList } from '../go-format.js';
import { failuresText, type Gathered } from '../node-facts.js';
import { compareStrings } from './order.js';

/** allBooted wants every node in the running stage; the others are listed by stage, in the stages' order. */
export function allBooted(g: Gathered<MachineStage>): string | undefined {
  const failed = failuresText(g);
  if (failed) return failed;
  // upstream waits on a watch until every node has told its stage; a read sees one that has not
  const silent = g.answers.filter((a) => a.value === 'unknown').map((a) => a.node);
  if (silent.length > 0)
    return `nodes have not reported their stage yet: ${plainList(silent.sort(compareStrings))}`;
  const byStage = new Map<MachineStage, string[]>();
  for (const { node, value } of g.answers)
    if (value !== 'running') byStage.set(value, [...(byStage.get(value) ?? []), node]);
  if (byStage.size === 0) return undefined;
  const stages = [...byStage.keys()].sort((a, b) => MACHINE_STAGES.indexOf(a) - MACHINE_STAGES.indexOf(b));
  const parts = stages.map((s) => `${s}: ${plainList(byStage.get(s)!.sort(compareStrings))}`);
  return `nodes are not running: ${parts.join(', ')}`;
}

/** noDiagnostics lists each node's active diagnostics, nodes in order, messages comma-separated. */
export function noDiagnostics(g: Gathered<readonly string[]>): string | undefined {
  const failed = failuresText(g);
  if (failed) return failed;
  const withWarnings = g.answers
    .filter((a) => a.value.length > 0)
    .sort((a, b) => compareStrings(a.node, b.node));
  if (withWarnings.length === 0) return undefined;
  return `active diagnostics: ${withWarnings.map((a) => `${a.node}: ${a.value.join(', ')}`).join('; ')}`;
}
