import { describe, expect, it } from 'vitest';
import { fillDefinition } from '../../../../src/cosi/resource/definition.js';
import {
  NamespaceType,
  ResolveTypeError,
  ResourceDefinitionType,
  resolveType,
} from '../../../../src/cosi/resource/meta/index.js';

const addresses = fillDefinition({
  type: 'AddressStatuses.net.talos.dev',
  defaultNamespace: 'network',
  aliases: ['address'],
});
const addressSpecs = fillDefinition({
  type: 'AddressSpecs.net.talos.dev',
  defaultNamespace: 'network',
  aliases: ['address'],
});
const all = [NamespaceType.definition, ResourceDefinitionType.definition, addresses];

describe('resolveType', () => {
  it.each([
    ['namespaces.meta.cosi.dev', 'Namespaces.meta.cosi.dev'],
    ['Namespaces.Meta.Cosi.Dev', 'Namespaces.meta.cosi.dev'],
    ['ns', 'Namespaces.meta.cosi.dev'],
    ['NAMESPACE', 'Namespaces.meta.cosi.dev'],
    ['namespaces.meta', 'Namespaces.meta.cosi.dev'],
    ['rd', 'ResourceDefinitions.meta.cosi.dev'],
    ['RDs', 'ResourceDefinitions.meta.cosi.dev'],
    ['api-resources', 'ResourceDefinitions.meta.cosi.dev'],
    ['addressstatus', 'AddressStatuses.net.talos.dev'],
    ['as', 'AddressStatuses.net.talos.dev'],
    ['address', 'AddressStatuses.net.talos.dev'],
  ])('resolves %s to %s', (input, type) => {
    expect(resolveType(all, input).type).toBe(type);
  });

  it('reports every match when several definitions answer to the input', () => {
    const err = (() => {
      try {
        resolveType([...all, addressSpecs], 'address');
      } catch (e) {
        return e;
      }
    })() as ResolveTypeError;
    expect(err).toBeInstanceOf(ResolveTypeError);
    expect(err.code).toBe('ambiguous');
    expect(err.matches).toEqual(['addressstatuses.net.talos.dev', 'addressspecs.net.talos.dev']);
    expect(err.message).toBe(
      'resource type "address" is ambiguous: [addressstatuses.net.talos.dev addressspecs.net.talos.dev]',
    );
  });

  it('reports an unknown input as not registered', () => {
    expect(() => resolveType(all, 'Namespaces.meta.cosi')).not.toThrow();
    expect(() => resolveType(all, 'links')).toThrow(
      new ResolveTypeError('not-registered', 'links', [], 'resource "links" is not registered'),
    );
  });
});
