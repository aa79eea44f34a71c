import { describe, expect, it } from 'vitest';
import { destroyController } from '../../../../src/cosi/controller/generic/destroy.js';
import { IntResource } from '../../../../src/cosi/testing/resources.js';

describe('destroyController', () => {
  it('is the QController Destroy[<type>], sharing its type as output', () => {
    const c = destroyController(IntResource, { namespace: 'ns', concurrency: 4 });
    expect(c.name).toBe(`Destroy[${IntResource.type}]`);
    expect(c.inputs).toEqual([{ namespace: 'ns', type: IntResource.type, kind: 'q-primary' }]);
    expect(c.outputs).toEqual([{ type: IntResource.type, kind: 'shared' }]);
    expect(c.concurrency).toBe(4);
  });
});
