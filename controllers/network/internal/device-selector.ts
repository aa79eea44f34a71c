// Resolving v1alpha1 device selectors against the links the kernel has, as upstream's DeviceConfigController:
// go-glob patterns over the LinkStatus fields, and one DeviceConfigSpec per resolved interfaces[] entry.
import type { LinkStatusSpec } from '../../../resources/network/link-status.js';
import { linkStatusPhysical } from '../../../resources/network/link-status.js';
import type { Device, DeviceSelector } from '../../../src/config/types/v1alpha1/network.js';

/**
 * glob is ryanuber/go-glob's Glob: `*` is the only wildcard (no `?`, no classes, no escapes) and
 * matching is case-sensitive, so "52:54:00:AB:*" never matches the lowercase address the kernel reports.
 */
export function glob(pattern: string, subject: string): boolean {
  if (pattern === '') return subject === '';
  if (pattern === '*') return true;
  const parts = pattern.split('*');
  if (parts.length === 1) return subject === pattern;
  const leading = pattern.startsWith('*');
  const trailing = pattern.endsWith('*');
  const end = parts.length - 1;
  let rest = subject;
  for (let i = 0; i < end; i++) {
    const part = parts[i]!;
    const idx = rest.indexOf(part);
    if (i === 0 ? !leading && idx !== 0 : idx < 0) return false;
    rest = rest.slice(idx + part.length);
  }
  return trailing || rest.endsWith(parts[end]!);
}

export interface SelectableLink {
  readonly id: string;
  readonly spec: LinkStatusSpec;
}

/**
 * matchesSelector: every set glob must match its field; `physical`, when set, decides alone for a
 * link the globs did not refuse. A selector with nothing set matches no link.
 */
export function matchesSelector(s: DeviceSelector, link: LinkStatusSpec): boolean {
  let match: boolean | undefined;
  for (const [pattern, value] of [
    [s.hardwareAddr, link.hardwareAddr],
    [s.permanentAddr, link.permanentAddr],
    [s.pciID, link.pciID],
    [s.driver, link.driver],
    [s.busPath, link.busPath],
  ] as const) {
    if (!pattern) continue;
    if (!glob(pattern, value)) return false;
    match = true;
  }
  if (s.physical !== undefined) match = s.physical === linkStatusPhysical(link);
  return match === true;
}

/** selectLinks returns the links a selector picks, in the order given. */
export const selectLinks = (s: DeviceSelector, links: readonly SelectableLink[]): SelectableLink[] =>
  links.filter((l) => matchesSelector(s, l.spec));

export interface ResolvedDevice {
  /** the DeviceConfigSpec id: `<interface>/<index>`, and `/<j>` when a selector picked several links */
  readonly id: string;
  readonly device: Device;
}

export interface Resolution {
  readonly devices: readonly ResolvedDevice[];
  /** entries skipped because their selectors matched no link, for the log */
  readonly unmatched: readonly { readonly index: number; readonly reason: string }[];
}

const pad = (n: number) => String(n).padStart(3, '0');

/**
 * resolveDevices gives each interfaces[] entry its link: a deviceSelector entry becomes one copy per
 * matching link (the selector kept, the interface set), bond deviceSelectors become bond interfaces,
 * and an entry that names its link passes unchanged.
 */
export function resolveDevices(interfaces: readonly Device[], links: readonly SelectableLink[]): Resolution {
  const devices: ResolvedDevice[] = [];
  const unmatched: { index: number; reason: string }[] = [];
  interfaces.forEach((dev, index) => {
    let out: Device[] = [dev];
    if (dev.deviceSelector) {
      const picked = selectLinks(dev.deviceSelector, links);
      if (picked.length === 0) {
        unmatched.push({
          index,
          reason: `no matching network device for selector ${JSON.stringify(dev.deviceSelector)}`,
        });
        return;
      }
      out = picked.map((l) => ({ ...structuredClone(dev), interface: l.id }));
    } else if (dev.bond?.deviceSelectors?.length) {
      // the bond itself inherits its first member's MAC address, so it would match its own selectors
      const members = dev.bond.deviceSelectors.flatMap((s) =>
        selectLinks(s, links).filter((l) => l.id !== dev.interface),
      );
      if (members.length === 0) {
        unmatched.push({
          index,
          reason: `no matching network device for bond selectors ${JSON.stringify(dev.bond.deviceSelectors)}`,
        });
        return;
      }
      const { deviceSelectors: _, ...bond } = structuredClone(dev.bond);
      out = [{ ...structuredClone(dev), bond: { ...bond, interfaces: members.map((l) => l.id) } }];
    }
    out.forEach((d, j) => {
      const id = `${d.interface ?? ''}/${pad(index)}`;
      devices.push({ id: out.length > 1 ? `${id}/${pad(j)}` : id, device: d });
    });
  });
  return { devices, unmatched };
}
