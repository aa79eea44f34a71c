// The shape NodeLabelSpecs and NodeAnnotationSpecs share: one key and its value per resource, the key
// also the id. Upstream declares the two types alike; one definition here keeps their wire forms equal.
import { defineResource } from '../../src/cosi/resource/typed.js';
import { obj, str } from '../network/yaml-read.js';
import { K8S_NAMESPACE } from './namespace.js';

/** KeyValueSpec is one key of a Node's labels or annotations and the value Talos wants for it. */
export interface KeyValueSpec {
  key: string;
  value: string;
}

/** defineKeyValueSpec defines a sensitive `k8s` resource type of KeyValueSpec, as upstream's. */
export const defineKeyValueSpec = (type: string) =>
  defineResource<KeyValueSpec>({
    type,
    defaultNamespace: K8S_NAMESPACE,
    sensitivity: 'sensitive',
    printColumns: [{ name: 'Value', jsonPath: '{.value}' }],
    empty: () => ({ key: '', value: '' }),
    copy: (s) => ({ key: s.key, value: s.value }),
    equal: (a, b) => a.key === b.key && a.value === b.value,
    proto: { key: { no: 1, kind: 'string' }, value: { no: 2, kind: 'string' } },
    fromProto: (v) => ({ key: str(v.key), value: str(v.value) }),
    toYAML: (s) => ({ key: s.key, value: s.value }),
    fromYAML: (v) => ({ key: str(obj(v).key), value: str(obj(v).value) }),
  });
