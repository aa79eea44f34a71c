// "etcd to be healthy", "kubelet to be healthy": upstream's ServiceHealthAssertion over what each node's
// ServiceList says of the service.
import { multiError } from '../go-format.js';
import { failuresText, type Gathered, type ServiceFact } from '../node-facts.js';
import { byNode } from './order.js';

/**
 * serviceHealth wants one answer per expected node, each with the service Running (its last event) and
 * healthy. A node that runs no such service gives no answer, hence upstream's count message.
 */
export function serviceHealth(
  service: string,
  expected: number,
  g: Gathered<ServiceFact | undefined>,
): string | undefined {
  const failed = failuresText(g);
  if (failed) return failed;
  const found = g.answers.flatMap((a) => (a.value ? [{ node: a.node, info: a.value }] : [])).sort(byNode);
  if (found.length !== expected) return `expected a response with ${expected} node(s), got ${found.length}`;
  const errors: string[] = [];
  const name = JSON.stringify(service);
  for (const { node, info } of found) {
    const last = info.events.at(-1);
    if (!last) errors.push(`${node}: no events recorded yet for service ${name}`);
    else if (last.state !== 'Running')
      errors.push(
        `${node}: service ${name} not in expected state "Running": current state [${last.state}] ${last.msg}`,
      );
    else if (!info.healthy) errors.push(`${node}: service is not healthy: ${service}`);
  }
  return multiError(errors);
}
