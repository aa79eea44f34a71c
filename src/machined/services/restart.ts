// Restart policies, as upstream's restart runner types: Forever (default), Once, UntilSuccess.

export type RestartPolicy = 'Forever' | 'Once' | 'UntilSuccess';

/** shouldRestart: Forever restarts even after a clean exit; UntilSuccess only after a failure. */
export function shouldRestart(policy: RestartPolicy, succeeded: boolean): boolean {
  switch (policy) {
    case 'Forever':
      return true;
    case 'UntilSuccess':
      return !succeeded;
    case 'Once':
      return false;
  }
}

/** describe words the policy the way the restart message does ("going to restart forever"). */
export const restartWording = (policy: RestartPolicy): string =>
  policy === 'Forever' ? 'forever' : 'until success';
