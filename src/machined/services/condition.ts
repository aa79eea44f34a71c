// Conditions gate a service's start: each says what it waits for, and resolves when satisfied.

export interface Condition {
  /** shown in the Waiting state: "Waiting for <description>" */
  readonly description: string;
  wait(signal: AbortSignal): Promise<void>;
}

/** allOf waits for every condition; its description lists the ones still pending. */
export function allOf(...conds: Condition[]): Condition {
  return {
    description: conds.map((c) => c.description).join(', '),
    async wait(signal) {
      await Promise.all(conds.map((c) => c.wait(signal)));
    },
  };
}

/** condition builds one from a description and a wait function. */
export const condition = (description: string, wait: (signal: AbortSignal) => Promise<void>): Condition => ({
  description,
  wait,
});
