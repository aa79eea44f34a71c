// Bond settings as the kernel's bonding driver numbers them, with upstream's text forms.
import { defineEnum } from './enum.js';

export type BondMode = number;
export const BondMode = {
  RoundRobin: 0,
  ActiveBackup: 1,
  XOR: 2,
  Broadcast: 3,
  LACP8023AD: 4,
  TLB: 5,
  ALB: 6,
} as const;
export const BondModes = defineEnum('BondMode', {
  0: 'balance-rr',
  1: 'active-backup',
  2: 'balance-xor',
  3: 'broadcast',
  4: '802.3ad',
  5: 'balance-tlb',
  6: 'balance-alb',
});

export type BondXmitHashPolicy = number;
export const BondXmitHashPolicies = defineEnum('BondXmitHashPolicy', {
  0: 'layer2',
  1: 'layer3+4',
  2: 'layer2+3',
  3: 'encap2+3',
  4: 'encap3+4',
});

export type LACPRate = number;
export const LACPRates = defineEnum('LACPRate', { 0: 'slow', 1: 'fast' });

export type ARPValidate = number;
export const ARPValidates = defineEnum('ARPValidate', {
  0: 'none',
  1: 'active',
  2: 'backup',
  3: 'all',
  4: 'filter',
  5: 'filter-active',
  6: 'filter-backup',
});

export type ARPAllTargets = number;
export const ARPAllTargetsValues = defineEnum('ARPAllTargets', { 0: 'any', 1: 'all' });

export type PrimaryReselect = number;
export const PrimaryReselects = defineEnum('PrimaryReselect', { 0: 'always', 1: 'better', 2: 'failure' });

export type FailOverMAC = number;
export const FailOverMACs = defineEnum('FailOverMAC', { 0: 'none', 1: 'active', 2: 'follow' });

export type ADSelect = number;
export const ADSelects = defineEnum('ADSelect', { 0: 'stable', 1: 'bandwidth', 2: 'count' });

export type ADLACPActive = number;
export const ADLACPActives = defineEnum('ADLACPActive', { 0: 'off', 1: 'on' });
