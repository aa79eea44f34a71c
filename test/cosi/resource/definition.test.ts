import { describe, expect, it } from 'vitest';
import { fillDefinition } from '../../../src/cosi/resource/definition.js';

describe('fillDefinition', () => {
  it('derives the aliases of ResourceDefinitions as upstream', () => {
    const d = fillDefinition({
      type: 'ResourceDefinitions.meta.cosi.dev',
      defaultNamespace: 'meta',
      aliases: ['api-resources'],
    });
    expect(d.displayType).toBe('ResourceDefinition');
    expect(d.aliases).toEqual(['api-resources', 'resourcedefinition', 'rd', 'rds']);
    expect(d.allAliases).toEqual([
      'resourcedefinitions',
      'resourcedefinitions.meta',
      'resourcedefinitions.meta.cosi',
      'api-resources',
      'resourcedefinition',
      'rd',
      'rds',
    ]);
  });

  it('derives the aliases of Namespaces', () => {
    const d = fillDefinition({ type: 'Namespaces.meta.cosi.dev', defaultNamespace: 'meta', aliases: ['ns'] });
    expect(d.aliases).toEqual(['ns', 'namespace']);
  });

  it('does not add an s to capitals ending in S', () => {
    const d = fillDefinition({ type: 'HostnameStatuses.net.talos.dev', defaultNamespace: 'network' });
    expect(d.displayType).toBe('HostnameStatus');
    expect(d.aliases).toEqual(['hostnamestatus', 'hs']);
  });

  it.each([
    ['Foos', 'missing suffix'],
    ['.foo.dev', 'name is empty'],
    ['Foos.', 'suffix is empty'],
    ['foos.dev', 'name should be in CamelCase'],
    ['Foo_s.dev', "name doesn't match"],
    ['Foos.Dev', "suffix doesn't match"],
    ['Foo.dev', 'name should be plural'],
  ])('rejects %s: %s', (type, reason) => {
    expect(() => fillDefinition({ type, defaultNamespace: 'ns' })).toThrow(reason);
  });
});
