// What a Reset wipes, worked out from the request and the node's block resources before anything is
// stopped: a request naming a label Keel does not have, a partition the system disk does not hold, or a
// user disk that is not one is refused whole, so a bad request never leaves a node half reset.

/** the system disk labels a Reset may wipe, as upstream's */
export const RESETTABLE_LABELS = ['EFI', 'BIOS', 'BOOT', 'META', 'STATE', 'EPHEMERAL'] as const;
/** what a Reset wipes when it names no label: the node's config and data, keeping its installation */
export const DEFAULT_WIPE_LABELS = ['STATE', 'EPHEMERAL'] as const;

export type WipeMode = 'ALL' | 'SYSTEM_DISK' | 'USER_DISKS';

export interface ResetRequestLike {
  readonly graceful?: boolean;
  readonly reboot?: boolean;
  readonly system_partitions_to_wipe?: readonly { readonly label?: string; readonly wipe?: boolean }[];
  readonly user_disks_to_wipe?: readonly string[];
  readonly mode?: WipeMode | number;
}

/** PartitionFound is a partition of the system disk as discovery saw it. */
export interface PartitionFound {
  readonly label: string;
  readonly devPath: string;
}

export interface ResetInputs {
  /** the system disk's device node, undefined when nothing is installed */
  readonly systemDisk: string | undefined;
  /** the system disk's partitions */
  readonly partitions: readonly PartitionFound[];
  /** every disk's device node */
  readonly disks: readonly string[];
}

export interface ResetPlan {
  readonly graceful: boolean;
  /** the disk the partitions are on */
  readonly systemDisk: string | undefined;
  readonly reboot: boolean;
  /** partitions to wipe, in the order given */
  readonly partitions: readonly PartitionFound[];
  /** whole user disks to wipe */
  readonly userDisks: readonly string[];
}

/** ResetRefused says which part of the request cannot be carried out. */
export class ResetRefused extends Error {
  constructor(
    /** 'request': the request itself is wrong; 'node': this node cannot do what it asks */
    readonly kind: 'request' | 'node',
    message: string,
  ) {
    super(message);
    this.name = 'ResetRefused';
  }
}

const MODES: readonly WipeMode[] = ['ALL', 'SYSTEM_DISK', 'USER_DISKS'];

/** planReset checks the request against the node and says what to wipe; ResetRefused when it cannot. */
export function planReset(req: ResetRequestLike, node: ResetInputs): ResetPlan {
  const mode = typeof req.mode === 'number' ? MODES[req.mode] : (req.mode ?? 'ALL');
  if (!mode || !MODES.includes(mode))
    throw new ResetRefused('request', `wipe mode ${String(req.mode)} is not supported`);
  const specs = req.system_partitions_to_wipe ?? [];
  for (const s of specs)
    if (!(RESETTABLE_LABELS as readonly string[]).includes(s.label ?? ''))
      throw new ResetRefused('request', `label ${JSON.stringify(s.label ?? '')} is not supported`);

  const partitions: PartitionFound[] = [];
  if (mode !== 'USER_DISKS') {
    const labels = specs.length ? specs.filter((s) => s.wipe).map((s) => s.label!) : [...DEFAULT_WIPE_LABELS];
    const named = specs.map((s) => s.label!);
    if (specs.length && node.systemDisk === undefined)
      throw new ResetRefused(
        'node',
        'no system disk: the node is not installed, there is no partition to wipe',
      );
    for (const label of specs.length ? named : labels) {
      const found = node.partitions.find((p) => p.label === label);
      if (!found) {
        // a default label the node never made (not installed, or not yet provisioned) has nothing to wipe
        if (!specs.length) continue;
        throw new ResetRefused(
          'node',
          `failed to locate the partition with label ${JSON.stringify(label)} on the system disk`,
        );
      }
      if (labels.includes(label)) partitions.push(found);
    }
  }

  const userDisks: string[] = [];
  if (mode !== 'SYSTEM_DISK') {
    for (const d of req.user_disks_to_wipe ?? []) {
      if (!node.disks.includes(d))
        throw new ResetRefused('request', `user disk ${JSON.stringify(d)} is not a disk of this node`);
      if (d === node.systemDisk)
        throw new ResetRefused('request', `user disk ${JSON.stringify(d)} is the system disk`);
      userDisks.push(d);
    }
  }
  return {
    graceful: req.graceful ?? false,
    systemDisk: node.systemDisk,
    reboot: req.reboot ?? false,
    partitions,
    userDisks,
  };
}
