// The node's side of installing itself: what planInstall needs from the block resources, the install
// from the boot medium (mounted read-only under /run, its /keel/install assets handed to installToDisk,
// tools started by PID 1's own spawner), and the wait for the config to be kept on the new STATE.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import {
  BLOCK_NAMESPACE,
  DISCOVERED_VOLUMES_STATUS_ID,
  DiscoveredVolume,
  DiscoveredVolumesStatus,
  Disk,
  SYSTEM_DISK_ID,
  SystemDisk,
} from '../../../resources/block/index.js';
import { type Config, v1alpha1Of } from '../../config/index.js';
import type { InstallDiskSelector } from '../../config/types/v1alpha1/machine.js';
import type { State } from '../../cosi/state/state.js';
import {
  InstallError,
  installToDisk,
  LAYERS,
  type LayerName,
  layerOnMedium,
  type ToolRunner,
} from '../../install/index.js';
import { MS, mount, umount } from '../../sys/mount.js';
import type { Installer } from '../sequencer/index.js';
import { spawnWithoutFork } from '../services/index.js';
import { type InstallInputs, type InstallPlan, ISO_LABEL, planInstall } from './install-plan.js';

/** where the install mounts the boot medium and, for a moment, the new EFI and BOOT */
export const INSTALL_SCRATCH = '/run/install';
const TOOL_PATH = '/usr/sbin:/usr/bin:/sbin:/bin';
/** how long discovery may take to settle before the node judges whether it is installed */
const DISCOVERY_MS = 60_000;
/** how long the volume controllers may take to make STATE and keep the config there */
const STATE_MS = 120_000;

/** installInputs reads what planInstall needs, once block discovery has settled. */
export async function installInputs(state: State, cfg: Config, signal: AbortSignal): Promise<InstallInputs> {
  const settled = AbortSignal.timeout(DISCOVERY_MS);
  await state
    .watchFor(DiscoveredVolumesStatus.pointer(DISCOVERED_VOLUMES_STATUS_ID, BLOCK_NAMESPACE), {
      signal: AbortSignal.any([signal, settled]),
      eventTypes: ['created', 'updated'],
      condition: (r) => (r as DiscoveredVolumesStatus).spec.ready === true,
    })
    .catch((e: unknown) => {
      if (settled.aborted && !signal.aborted)
        throw new Error(`block discovery not complete after ${DISCOVERY_MS / 1000} s`);
      throw e;
    });
  const sys = (await state.get(SystemDisk.pointer(SYSTEM_DISK_ID, BLOCK_NAMESPACE)).catch(() => undefined)) as
    | SystemDisk
    | undefined;
  const disks = (await state.list({ namespace: BLOCK_NAMESPACE, type: Disk.type })) as Disk[];
  const volumes = (await state.list({
    namespace: BLOCK_NAMESPACE,
    type: DiscoveredVolume.type,
  })) as DiscoveredVolume[];
  const iso = volumes.find((v) => v.spec.name === 'iso9660' && v.spec.label === ISO_LABEL);
  const medium = iso
    ? { devPath: iso.spec.devPath, disk: iso.spec.parentDevPath || iso.spec.devPath }
    : undefined;
  const selector = v1alpha1Of(cfg)?.machine?.install?.diskSelector;
  return {
    cfg,
    systemDisk: sys?.spec.devPath || undefined,
    disks: disks.map((d) => `/dev/${d.metadata.id}`),
    ...(selector ? { selected: await selectedDisk(selector, disks, medium?.disk) } : {}),
    medium,
    uefi: existsSync('/sys/firmware/efi'),
  };
}

/** selectedDisk evaluates the install disk selector on the disks (CEL, loaded only for a selector). */
async function selectedDisk(
  selector: InstallDiskSelector,
  disks: readonly Disk[],
  mediumDisk: string | undefined,
): Promise<NonNullable<InstallInputs['selected']>> {
  const { selectInstallDisk } = await import('../../../controllers/block/install-disk.js');
  try {
    const specs = disks.map((d) => d.spec);
    return { disk: selectInstallDisk(selector, specs, mediumDisk ? [mediumDisk] : []) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** pid1Tools runs the installer's tools through PID 1's spawner, their exits delivered by its reaper. */
export const pid1Tools: ToolRunner = (file, args, opts = {}) =>
  new Promise((resolve, reject) => {
    const child = spawnWithoutFork(file, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PATH: TOOL_PATH, ...opts.env },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (b: Buffer) => out.push(b));
    child.stderr?.on('data', (b: Buffer) => err.push(b));
    const kill = () => child.kill('SIGKILL');
    opts.signal?.addEventListener('abort', kill, { once: true });
    child.once('error', (e: Error) => {
      opts.signal?.removeEventListener('abort', kill);
      reject(new InstallError('tool-failed', `${file}: ${e.message}`, { cause: e }));
    });
    child.once('exit', (code: number | null, sig: string | null) => {
      opts.signal?.removeEventListener('abort', kill);
      // the pipes drain after the exit: wait for their ends so nothing the tool said is lost
      const ended = [child.stdout, child.stderr].map((s) =>
        s && !s.readableEnded ? new Promise((r) => s.once('close', r)) : undefined,
      );
      void Promise.all(ended).then(() => {
        if (code === 0) return resolve(Buffer.concat(out).toString('utf8'));
        const said = Buffer.concat(err).toString('utf8').trim();
        reject(
          new InstallError(
            'tool-failed',
            `${file} ${args.join(' ')}: ${said || (sig ? `killed by ${sig}` : `exit ${code}`)}`,
          ),
        );
      });
    });
  });

/** installFromMedium mounts the boot medium read-only and installs its assets onto the planned disk. */
export async function installFromMedium(
  plan: Extract<InstallPlan, { kind: 'install' }>,
  opts: { readonly version: string; readonly signal: AbortSignal; readonly log: (line: string) => void },
): Promise<void> {
  const media = join(INSTALL_SCRATCH, 'media');
  mkdirSync(media, { recursive: true, mode: 0o700 });
  mount(plan.medium, media, 'iso9660', { flags: MS.RDONLY | MS.NOSUID | MS.NODEV | MS.NOEXEC });
  try {
    const assets = join(media, 'keel/install');
    const cmdline = readFileSync(join(assets, 'cmdline'), 'utf8').trim().split(/\s+/);
    opts.log(`installing ${opts.version} onto ${plan.disk} (${plan.bootloader}) from ${plan.medium}`);
    const r = await installToDisk({
      disk: plan.disk,
      bootloader: plan.bootloader,
      assets: {
        uki: join(assets, 'keel.efi'),
        systemdBoot: join(assets, 'systemd-bootx64.efi'),
        bootImg: join(assets, 'boot.img'),
        coreImg: join(assets, 'core.img'),
        kernel: join(media, 'boot/vmlinuz'),
        initramfs: join(media, 'boot/initramfs'),
        // the layers the medium carries go to the disk too, so an installed node runs etcd (and the
        // kubelet) without the medium
        layers: layersOn(media),
      },
      version: opts.version,
      cmdline,
      wipe: plan.wipe,
      scratchDir: INSTALL_SCRATCH,
      run: pid1Tools,
      signal: opts.signal,
    });
    opts.log(
      `installed onto ${plan.disk}${r.wiped ? ' (wiped first)' : ''}: ${r.layout.partitions.map((p) => p.label).join(', ')}`,
    );
  } finally {
    umount(media);
  }
}

/** layersOn finds the layers a mounted medium carries (controllers/runtime mounts them from there too). */
function layersOn(media: string): Partial<Record<LayerName, string>> {
  const found: Partial<Record<LayerName, string>> = {};
  for (const l of LAYERS)
    if (existsSync(join(media, layerOnMedium(l)))) found[l] = join(media, layerOnMedium(l));
  return found;
}

/** waitFor resolves with `p`, or rejects once `ms` or the signal ends the wait. */
async function waitFor(p: Promise<void>, ms: number, what: string, signal: AbortSignal): Promise<void> {
  const timeout = delay(ms, 'timeout' as const, { signal }).catch(() => 'aborted' as const);
  const r = await Promise.race([p.then(() => 'done' as const), timeout]);
  if (r === 'done') return;
  signal.throwIfAborted();
  throw new Error(`${what} not done after ${ms / 1000} s`);
}

/** nodeInstaller is the Install sequence's view of the node: the install, then the config on STATE. */
export function nodeInstaller(opts: {
  readonly version: string;
  /** resolves once the active config is kept on a mounted STATE */
  readonly configStored: Promise<void>;
}): Installer {
  return {
    install: (data, { signal, log }) =>
      installFromMedium(data as Extract<InstallPlan, { kind: 'install' }>, {
        version: opts.version,
        signal,
        log,
      }),
    async waitForStateConfig({ signal, log }) {
      await waitFor(opts.configStored, STATE_MS, 'STATE with the config', signal);
      log('the config is kept on STATE');
    },
  };
}

/**
 * installIfAsked plans the install and, when one is due, runs the Install sequence. True means the disk
 * was installed and the node should reboot into it; a refusal or a failure is logged, and the node goes
 * on running from its boot medium, manageable through its API.
 */
export async function installIfAsked(o: {
  readonly state: State;
  readonly cfg: Config;
  readonly run: (plan: InstallPlan) => Promise<void>;
  readonly log: (line: string) => void;
  readonly signal: AbortSignal;
}): Promise<boolean> {
  let plan: InstallPlan;
  try {
    plan = planInstall(await installInputs(o.state, o.cfg, o.signal));
  } catch (e) {
    o.log(`install: not attempted: ${(e as Error).message}`);
    return false;
  }
  if (plan.kind === 'skip') {
    o.log(`install: not needed: ${plan.reason}`);
    return false;
  }
  if (plan.kind === 'refuse') {
    o.log(`install: refused: ${plan.reason}; the node runs from its boot medium`);
    return false;
  }
  try {
    await o.run(plan);
    return true;
  } catch (e) {
    o.log(`install: failed: ${(e as Error).message}; the node runs from its boot medium`);
    return false;
  }
}
