// What a validation rule sees: the runtime mode, the node's role, and sinks for errors and warnings.

/** Mode is the runtime mode `validate --mode` takes: metal installs to disk, container never does. */
export type Mode = 'metal' | 'cloud' | 'container';
export const modes: readonly Mode[] = ['metal', 'cloud', 'container'];

export interface RuleContext {
  readonly mode: Mode;
  /** effective machine type: init | controlplane | worker */
  readonly machineType: string;
  error(path: string, message: string): void;
  warn(path: string, message: string): void;
}

export const isControlPlane = (ctx: RuleContext): boolean =>
  ctx.machineType === 'controlplane' || ctx.machineType === 'init';
