// v1alpha1 network device selectors: at least one field, and glob values that can match what the
// kernel reports for a link (upstream matches with go-glob, case-sensitively, and never refuses a value).
import type { DeviceSelector } from '../types/v1alpha1/network.js';
import type { RuleContext } from './context.js';

const q = JSON.stringify;

/** isEmptySelector is upstream's IsZero test: empty strings and an unset `physical` select nothing. */
export const isEmptySelector = (s: DeviceSelector): boolean =>
  !s.busPath && !s.hardwareAddr && !s.permanentAddr && !s.pciID && !s.driver && s.physical === undefined;

/** validateDeviceSelector checks one selector at `at` (…deviceSelector or …deviceSelectors[i]). */
export function validateDeviceSelector(s: DeviceSelector, at: string, ctx: RuleContext): void {
  if (isEmptySelector(s)) {
    ctx.error(at, 'config section should contain at least one field');
    return;
  }
  for (const key of ['hardwareAddr', 'permanentAddr'] as const) {
    const v = s[key];
    // the kernel's addresses read as lowercase hex pairs (Go's net.HardwareAddr.String)
    if (v && !canMatchGroups(v, MAC))
      ctx.error(
        `${at}.${key}`,
        `${key} ${q(v)} matches no link: addresses read as lowercase hex pairs joined by ":" (52:54:00:12:34:56), "*" as wildcard`,
      );
  }
  // the uevent's PCI_ID is printed by the kernel as %04X:%04X
  if (s.pciID && !canMatchGroups(s.pciID, PCI_ID))
    ctx.error(
      `${at}.pciID`,
      `pciID ${q(s.pciID)} matches no link: PCI IDs read as uppercase vendor:device hex (8086:100E), "*" as wildcard`,
    );
  if (s.busPath) {
    const problem = busPathProblem(s.busPath);
    if (problem) ctx.error(`${at}.busPath`, `busPath ${q(s.busPath)} matches no link: ${problem}`);
  }
  if (s.driver && /[\s/]/.test(s.driver))
    ctx.error(
      `${at}.driver`,
      `driver ${q(s.driver)} matches no link: kernel driver names have no spaces or "/"`,
    );
}

interface GroupShape {
  /** the full value when the pattern has no wildcard */
  readonly exact: RegExp;
  readonly digit: RegExp;
  /** digits per group between separators */
  readonly width: number;
}
const MAC: GroupShape = {
  exact: /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$|^[0-9a-f]{2}(:[0-9a-f]{2}){7}$|^[0-9a-f]{2}(:[0-9a-f]{2}){19}$/,
  digit: /^[0-9a-f]$/,
  width: 2,
};
const PCI_ID: GroupShape = { exact: /^[0-9A-F]{4}:[0-9A-F]{4}$/, digit: /^[0-9A-F]$/, width: 4 };

/**
 * canMatchGroups: could the glob match some value of fixed-width groups joined by ":"? Each literal run
 * between wildcards is cut at ":"; a group closed on both sides (by ":" or the pattern's ends) must have
 * the full width, one that a wildcard touches may be shorter, none may be wider.
 */
export function canMatchGroups(pattern: string, shape: GroupShape): boolean {
  if (!pattern.includes('*')) return shape.exact.test(pattern);
  const runs = pattern.split('*');
  return runs.every((run, k) => {
    const groups = run.split(':');
    return groups.every((g, j) => {
      if (![...g].every((c) => shape.digit.test(c))) return false;
      const closedLeft = j > 0 || k === 0;
      const closedRight = j < groups.length - 1 || k === runs.length - 1;
      return closedLeft && closedRight ? g.length === shape.width : g.length <= shape.width;
    });
  });
}

/**
 * busPathProblem: a bus path is the kernel's PCI_SLOT_NAME (`0000:00:03.0`, lowercase) or the
 * driver's bus info, so whitespace never matches, nor does lspci's short form or an uppercase slot.
 */
function busPathProblem(p: string): string | undefined {
  if (/\s/.test(p)) return 'bus paths have no whitespace';
  if (/^[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$/i.test(p))
    return `PCI slots carry their domain, as in ${q(`0000:${p.toLowerCase()}`)}`;
  if (/^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$/i.test(p) && p !== p.toLowerCase())
    return `PCI slot names are lowercase, as in ${q(p.toLowerCase())}`;
  return undefined;
}
