// MachineService.ApplyConfiguration: decode and validate the bytes (errors name the field), resolve the
// mode, and either describe the change (dry run) or hand it to the node's config host.
import { randomUUID } from 'node:crypto';
import {
  type Config,
  ConfigErrors,
  configText,
  decode,
  encode,
  formatErrors,
  v1alpha1Of,
  validate,
} from '../../config/index.js';
import { ApiError } from '../errors.js';
import { type ApiMessage, type Handler, unaryHandler } from '../handlers.js';
import { type ApplyMode, resolveMode } from './apply-mode.js';
import { unifiedDiff } from './config-diff.js';
import type { StatefulDeps } from './deps.js';

/** The default try timeout, upstream's ConfigTryTimeout. */
export const DEFAULT_TRY_TIMEOUT_MS = 60_000;

const MODES: readonly ApplyMode[] = ['REBOOT', 'AUTO', 'NO_REBOOT', 'STAGED', 'TRY'];

/** parseConfig turns request bytes into a valid config or an INVALID_ARGUMENT listing each field at fault. */
export function parseConfig(
  data: Buffer | Uint8Array | undefined,
  mode: 'container' | 'metal',
): {
  cfg: Config;
  warnings: string[];
} {
  let cfg: Config;
  try {
    const text = configText(data ?? new Uint8Array(0));
    if (text.trim() === '') throw new ApiError('invalid-argument', 'configuration is empty');
    cfg = decode(text);
  } catch (e) {
    if (e instanceof ConfigErrors)
      throw new ApiError('invalid-argument', `failed to decode the configuration: ${e.message}`, {
        cause: e,
      });
    throw e;
  }
  const result = validate(cfg, { mode });
  if (result.errors.length > 0)
    throw new ApiError('invalid-argument', `configuration validation failed: ${formatErrors(result.errors)}`);
  return { cfg, warnings: result.warnings.map((w) => w.message) };
}

const durationMs = (d: unknown): number | undefined => {
  if (!d || typeof d !== 'object') return undefined;
  const { seconds, nanos } = d as { seconds?: string | number; nanos?: number };
  const ms = Number(seconds ?? 0) * 1000 + Math.floor((nanos ?? 0) / 1e6);
  return ms > 0 ? ms : undefined;
};

export function applyConfigurationHandler(deps: StatefulDeps): Handler {
  const host = deps.config;
  const newActorId = deps.newActorId ?? randomUUID;
  let applying = false;
  return unaryHandler(async (req: ApiMessage) => {
    const requested = (req.mode as ApplyMode | undefined) ?? 'REBOOT';
    if (!MODES.includes(requested))
      throw new ApiError('invalid-argument', `unknown apply mode ${JSON.stringify(req.mode)}`);
    const maintenance = host.maintenance();
    const { cfg, warnings } = parseConfig(req.data as Buffer | undefined, host.validationMode);
    if (!maintenance && !v1alpha1Of(cfg))
      throw new ApiError(
        'invalid-argument',
        'the configuration has no v1alpha1 document: did you mean to patch the machine config instead?',
      );
    const current = host.active();
    const resolved = resolveMode(requested, current, cfg, maintenance);
    if (req.dry_run === true) {
      const diff = unifiedDiff(current ? encode(current) : '', encode(cfg));
      return {
        messages: [
          {
            warnings,
            mode: resolved.mode,
            mode_details: `Dry run summary:\n${resolved.details} (dry run).\n\nConfig diff:\n\n${diff || 'No changes.\n'}`,
          },
        ],
      };
    }
    if (applying) throw new ApiError('unavailable', 'another configuration is being applied: try again');
    applying = true;
    try {
      await host.apply(cfg, resolved.effect, {
        actorId: newActorId(),
        tryTimeoutMs: durationMs(req.try_mode_timeout) ?? DEFAULT_TRY_TIMEOUT_MS,
      });
    } finally {
      applying = false;
    }
    return { messages: [{ warnings, mode: resolved.mode, mode_details: resolved.details }] };
  });
}
