// The install disk chosen by `machine.install.diskSelector`: as upstream, the selector becomes a CEL
// expression over the Disk resource (globs on the text fields, a comparison on the size, the disk type as
// transport and rotation), evaluated on the writable disks in device order; the first match wins.
import type { DiskSpec } from '../../resources/block/disk.js';
import type { InstallDiskSelector } from '../../src/config/types/v1alpha1/machine.js';
import { parseSizeMatch } from '../../src/config/validate/disk-selector.js';
import { matchDisks } from './internal/volumes/index.js';
import { celDisk } from './volume-manager.js';

/** what each disk type means on the Disk resource, as upstream's selector */
const TYPE_MATCH: Readonly<Record<string, string>> = {
  nvme: 'disk.transport == "nvme"',
  sd: 'disk.transport == "mmc"',
  hdd: 'disk.rotational',
  ssd: '!disk.rotational',
};

/** the selector keys matched as globs, and the Disk field each reads */
const GLOBS = [
  ['model', 'model'],
  ['serial', 'serial'],
  ['modalias', 'modalias'],
  ['uuid', 'uuid'],
  ['wwid', 'wwid'],
  ['busPath', 'bus_path'],
] as const;

/** InstallDiskSelectorError names what in the selector cannot be matched. */
export class InstallDiskSelectorError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`machine.install.diskSelector.${field}: ${message}`);
    this.name = 'InstallDiskSelectorError';
  }
}

/** installDiskExpression turns the selector into a CEL expression over `disk`; `true` when it is empty. */
export function installDiskExpression(sel: InstallDiskSelector): string {
  const terms: string[] = [];
  if (sel.name)
    throw new InstallDiskSelectorError('name', 'selecting the install disk by name is not supported');
  if (sel.size !== undefined) {
    const m = parseSizeMatch(sel.size);
    if (typeof m === 'string') throw new InstallDiskSelectorError('size', m);
    terms.push(`disk.size ${m.op} ${Math.trunc(m.bytes)}u`);
  }
  for (const [key, field] of GLOBS) {
    const v = sel[key];
    if (v) terms.push(`glob(${JSON.stringify(v)}, disk.${field})`);
  }
  if (sel.type) {
    const t = TYPE_MATCH[sel.type];
    if (!t) throw new InstallDiskSelectorError('type', `unsupported disk type ${JSON.stringify(sel.type)}`);
    terms.push(t);
  }
  return terms.length ? terms.join(' && ') : 'true';
}

/**
 * selectInstallDisk is the first writable disk (by device path) the selector matches, or undefined.
 * `exclude` leaves out disks that must not be chosen (the boot medium).
 */
export function selectInstallDisk(
  sel: InstallDiskSelector,
  disks: readonly DiskSpec[],
  exclude: readonly string[] = [],
): string | undefined {
  const expr = installDiskExpression(sel);
  const candidates = [...disks]
    .filter((d) => !exclude.includes(d.devPath))
    .sort((a, b) => a.devPath.localeCompare(b.devPath))
    .map((d) => ({ disk: celDisk(d), systemDisk: false }));
  return matchDisks(expr, candidates)[0]?.dev_path;
}
