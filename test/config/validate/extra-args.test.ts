// The components' extraArgs keys are flag names: no leading dashes, no "=", no whitespace, not empty.
import { describe, expect, it } from 'vitest';
import { flagNameProblem } from '../../../src/config/validate/extra-args.js';
import { type RuleCase, ruleTable } from './rule-table.js';

const args = (
  at: 'apiServer' | 'controllerManager' | 'scheduler' | 'proxy',
  extraArgs: Record<string, string>,
) => ({
  cluster: { [at]: { extraArgs } },
});
const kubelet = (extraArgs: Record<string, string>) => ({ machine: { kubelet: { extraArgs } } });

const cases: RuleCase[] = [
  {
    rule: 'API server flags go without their dashes',
    role: 'controlplane',
    valid: args('apiServer', { 'audit-log-maxage': '30' }),
    invalid: args('apiServer', { '--audit-log-maxage': '30' }),
    path: 'cluster.apiServer.extraArgs.--audit-log-maxage',
    error:
      'extraArgs key "--audit-log-maxage" is not a flag name: write the flag without its leading dashes: "audit-log-maxage"',
  },
  {
    rule: 'a controller manager flag has no "="',
    role: 'controlplane',
    valid: args('controllerManager', { 'node-cidr-mask-size': '24' }),
    invalid: args('controllerManager', { 'node-cidr-mask-size=24': '' }),
    path: 'cluster.controllerManager.extraArgs.node-cidr-mask-size=24',
    error: 'extraArgs key "node-cidr-mask-size=24" is not a flag name: a flag name has no "="',
  },
  {
    rule: 'a scheduler flag has no whitespace',
    role: 'controlplane',
    valid: args('scheduler', { v: '2' }),
    invalid: args('scheduler', { 'v 2': '' }),
    path: 'cluster.scheduler.extraArgs.v 2',
    error: 'extraArgs key "v 2" is not a flag name: a flag name has no whitespace',
  },
  {
    rule: 'a kube-proxy flag is not empty',
    role: 'controlplane',
    valid: args('proxy', { 'metrics-bind-address': '0.0.0.0:10249' }),
    invalid: args('proxy', { '': '0.0.0.0:10249' }),
    path: 'cluster.proxy.extraArgs',
    error: 'extraArgs key "" is not a flag name: a flag name cannot be empty',
  },
  {
    rule: 'kubelet flags go without their dash',
    valid: kubelet({ 'feature-gates': 'A=true,B=false' }),
    invalid: kubelet({ '-v': '2' }),
    path: 'machine.kubelet.extraArgs.-v',
    error: 'write the flag without its leading dashes: "v"',
  },
];

describe('extraArgs keys', () => {
  ruleTable(cases);

  it.each([
    ['v', undefined],
    ['feature-gates', undefined],
    ['audit-log-path', undefined],
    ['--v', 'leading dashes'],
    ['-', 'leading dashes'],
    ['v=2', 'no "="'],
    ['node labels', 'no whitespace'],
    ['v\t', 'no whitespace'],
    ['', 'cannot be empty'],
    ['  ', 'cannot be empty'],
  ])('%j: %s', (key, problem) => {
    const found = flagNameProblem(key);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });
});
