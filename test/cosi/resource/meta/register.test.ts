import { describe, expect, it } from 'vitest';
import { definitionID } from '../../../../src/cosi/resource/definition.js';
import {
  NamespaceType,
  ResourceDefinitionType,
  registerDefault,
  registerNamespace,
  registerResource,
  resolveTypeIn,
} from '../../../../src/cosi/resource/meta/index.js';
import { defineResource } from '../../../../src/cosi/resource/typed.js';
import { isConflict } from '../../../../src/cosi/state/errors.js';
import { newInmemState } from '../../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../../src/cosi/state/wrap.js';

const Addresses = defineResource<{ address: string }>({
  type: 'AddressStatuses.net.talos.dev',
  defaultNamespace: 'network',
  aliases: ['address', 'addresses'],
  empty: () => ({ address: '' }),
});

const rdPtr = (type: string) => ResourceDefinitionType.pointer(definitionID(type));

describe('registerDefault', () => {
  it('creates the meta namespace and both meta definitions, owned by meta', async () => {
    const state = wrapCore(newInmemState());
    await registerDefault(state);
    const namespaces = await state.list({ namespace: 'meta', type: NamespaceType.type });
    expect(
      namespaces.map((r) => [
        r.metadata.id,
        r.metadata.owner,
        (r.spec as { description: string }).description,
      ]),
    ).toEqual([['meta', 'meta', 'Metadata namespace which contains resource and namespace definitions.']]);
    const rds = await state.list({ namespace: 'meta', type: ResourceDefinitionType.type });
    expect(rds.map((r) => [r.metadata.id, r.metadata.owner, r.metadata.version])).toEqual([
      ['namespaces.meta.cosi.dev', 'meta', 1],
      ['resourcedefinitions.meta.cosi.dev', 'meta', 1],
    ]);
    expect((await state.get(rdPtr(NamespaceType.type))).spec).toEqual(NamespaceType.definition);
  });

  it('is idempotent: a second registration writes nothing', async () => {
    const state = wrapCore(newInmemState());
    await registerDefault(state);
    await registerDefault(state);
    const rd = await state.get(rdPtr(ResourceDefinitionType.type));
    expect(rd.metadata.version).toBe(1);
  });
});

describe('registerNamespace and registerResource', () => {
  it('update a registration that changed', async () => {
    const state = wrapCore(newInmemState());
    await registerNamespace(state, 'network', 'first');
    await registerNamespace(state, 'network', 'first');
    await registerNamespace(state, 'network', 'second');
    const ns = await state.get(NamespaceType.pointer('network'));
    expect([ns.metadata.version, ns.spec]).toEqual([2, { description: 'second' }]);

    await registerResource(state, Addresses);
    const rd = await state.get(rdPtr(Addresses.type));
    expect([rd.metadata.owner, rd.metadata.version, rd.spec]).toEqual(['meta', 1, Addresses.definition]);
  });

  it('refuses to take over a definition someone else owns', async () => {
    const state = wrapCore(newInmemState());
    const theirs = ResourceDefinitionType.new('meta', definitionID(Addresses.type), {
      ...Addresses.definition,
      aliases: [],
    });
    await state.create(theirs, { owner: 'someone' });
    await expect(registerResource(state, Addresses)).rejects.toSatisfy(isConflict);
  });

  it('lets clients resolve registered kinds', async () => {
    const state = wrapCore(newInmemState());
    await registerDefault(state);
    await registerResource(state, Addresses);
    expect((await resolveTypeIn(state, 'AddressStatus')).type).toBe(Addresses.type);
    expect((await resolveTypeIn(state, 'ns')).defaultNamespace).toBe('meta');
    await expect(resolveTypeIn(state, 'links')).rejects.toThrow('resource "links" is not registered');
  });
});
