// Error aggregation for generic controllers: one pass reports every failure, not just the first.
import { errorText } from '../logger.js';

/** aggregate throws nothing for no errors, the error itself for one, and an AggregateError for more. */
export function aggregate(errors: readonly unknown[], what: string): Error | undefined {
  if (errors.length === 0) return undefined;
  if (errors.length === 1) return errors[0] instanceof Error ? errors[0] : new Error(String(errors[0]));
  return new AggregateError(errors, `${what}: ${errors.length} errors: ${errors.map(errorText).join('; ')}`);
}

/** wrap adds context to an error, keeping it as the cause. */
export const wrap = (message: string, cause: unknown): Error =>
  new Error(`${message}: ${errorText(cause)}`, { cause });
