// The progress lines of a health check, as upstream's server sends them: `waiting for <condition>`, sent
// only when it differs from the line before (the condition is polled far more often than it changes).
import type { Condition } from './condition.js';

export interface Reporter {
  update(condition: Condition): Promise<void>;
}

/** progressReporter sends each new line through `send`, trimmed as upstream's (a multi-error ends in "\n\n"). */
export function progressReporter(send: (line: string) => Promise<void>): Reporter {
  let last: string | undefined;
  return {
    async update(condition) {
      const line = `waiting for ${condition.toString()}`;
      if (line === last) return;
      last = line;
      await send(line.trim());
    },
  };
}
