// Control plane component rules: authorizer types and their flags on the API server, pod resource names.
import type { APIServerConfig, ControlPlaneComponent } from '../types/v1alpha1/cluster.js';
import type { RuleContext } from './context.js';

export const authorizerTypes = ['Node', 'RBAC', 'Webhook'];
const resourceNames = ['cpu', 'memory'];

export function validateAPIServer(a: APIServerConfig, ctx: RuleContext): void {
  const at = 'cluster.apiServer';
  if (a.authorizationConfig) {
    // upstream stops at the first conflicting flag and reports only that one
    for (const k of Object.keys(a.extraArgs ?? {})) {
      if (k === 'authorization-mode') {
        ctx.error(
          `${at}.extraArgs.${k}`,
          'authorization-mode cannot be used in conjunction with AuthorizationConfig, use either AuthorizationConfig or authorization-mode',
        );
        return;
      }
      if (k.startsWith('authorization-webhook-')) {
        ctx.error(
          `${at}.extraArgs.${k}`,
          'authorization-webhook-* flags cannot be used in conjunction with AuthorizationConfig, use either AuthorizationConfig or authorization-webhook-* flags',
        );
        return;
      }
    }
  }
  a.authorizationConfig?.forEach((z, i) => {
    const p = `${at}.authorizationConfig[${i}]`;
    const fail = (field: string, msg: string) =>
      ctx.error(`${p}.${field}`, `apiserver authorization config validation failed: ${msg}`);
    if (!z.type) fail('type', 'authorizer type must be set');
    else if (!z.name) fail('name', 'authorizer name must be set');
    else if (!authorizerTypes.includes(z.type))
      fail(
        'type',
        `authorizer type ${z.type} is not allowed, allowed types are [${authorizerTypes.join(' ')}]`,
      );
  });
  validateResources(a, at, 'apiserver', ctx);
}

/** validateResources allows only cpu and memory in requests and limits, as upstream's ResourcesConfig. */
export function validateResources(
  c: ControlPlaneComponent,
  at: string,
  what: string,
  ctx: RuleContext,
): void {
  for (const kind of ['requests', 'limits'] as const) {
    const v: unknown = c.resources?.[kind];
    // free-form in the schema: only a mapping has resource names to check
    const names = typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.keys(v) : [];
    const bad = names.find((k) => !resourceNames.includes(k));
    if (bad !== undefined) {
      ctx.error(
        `${at}.resources.${kind}.${bad}`,
        `${what} resource validation failed: unsupported pod resource ${JSON.stringify(bad)}`,
      );
      return;
    }
  }
}
