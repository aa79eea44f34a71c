import { Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { RemoteCallError, RequestError } from '../../../src/cosi/api/errors.js';
import {
  ERROR_CLASS_KEY,
  fromStatusError,
  isMissingMethod,
  type StateMethod,
  statusFor,
  toStatusError,
} from '../../../src/cosi/api/status.js';
import { pointer } from '../../../src/cosi/resource/kind.js';
import {
  isConflict,
  StateError,
  type StateErrorCode,
  stateErrorCode,
} from '../../../src/cosi/state/errors.js';

const ref = pointer('ns', 'Things.test.cosi.dev', 'a');

/** asReceived turns a server-side status into what a client call rejects with. */
const asReceived = (s: ReturnType<typeof toStatusError>): ServiceError =>
  Object.assign(new Error(s.details), {
    code: s.code ?? status.UNKNOWN,
    details: s.details ?? '',
    metadata: s.metadata ?? new Metadata(),
  });

const bare = (code: status, details = 'x'): ServiceError =>
  Object.assign(new Error(details), { code, details, metadata: new Metadata() });

describe('state errors to status codes (upstream table)', () => {
  const cases: [StateErrorCode, StateMethod, status][] = [
    ['not-found', 'Get', status.NOT_FOUND],
    ['not-found', 'Update', status.NOT_FOUND],
    ['owner-conflict', 'Update', status.PERMISSION_DENIED],
    ['owner-conflict', 'Destroy', status.PERMISSION_DENIED],
    ['already-exists', 'Create', status.ALREADY_EXISTS],
    ['phase-conflict', 'Update', status.INVALID_ARGUMENT],
    ['version-conflict', 'Update', status.FAILED_PRECONDITION],
    ['pending-finalizers', 'Destroy', status.FAILED_PRECONDITION],
    ['phase-conflict', 'Teardown', status.FAILED_PRECONDITION],
    ['conflict', 'TeardownAndDestroy', status.FAILED_PRECONDITION],
    ['invalid-bookmark', 'Watch', status.FAILED_PRECONDITION],
    ['invalid-argument', 'Watch', status.INVALID_ARGUMENT],
    ['unsupported', 'Watch', status.UNIMPLEMENTED],
  ];
  it.each(cases)('%s from %s → %s', (code, method, want) => {
    expect(statusFor(code, method)).toBe(want);
    expect(toStatusError(new StateError(code, 'boom', ref), method).code).toBe(want);
  });
});

describe('status back to errors', () => {
  const codes: StateErrorCode[] = [
    'not-found',
    'already-exists',
    'version-conflict',
    'pending-finalizers',
    'owner-conflict',
    'phase-conflict',
    'invalid-bookmark',
    'invalid-argument',
    'unsupported',
    'conflict',
  ];
  it.each(codes)('restores %s exactly from the trailer, with the message and resource', (code) => {
    const back = fromStatusError(
      asReceived(toStatusError(new StateError(code, 'why', ref), 'Update')),
      'Update',
      ref,
    );
    expect(back).toBeInstanceOf(StateError);
    expect(stateErrorCode(back)).toBe(code);
    expect(back.message).toBe('why');
    expect((back as StateError).ref).toEqual(ref);
  });

  it('keeps the wrapped class through causes', () => {
    const wrapped = new Error('outer', { cause: new StateError('pending-finalizers', 'inner', ref) });
    expect(toStatusError(wrapped, 'Destroy').metadata?.get(ERROR_CLASS_KEY)).toEqual(['pending-finalizers']);
  });

  it('reads bare codes as upstream clients do', () => {
    const cls = (code: status, method: StateMethod) =>
      stateErrorCode(fromStatusError(bare(code), method, ref));
    expect(cls(status.NOT_FOUND, 'Get')).toBe('not-found');
    expect(cls(status.PERMISSION_DENIED, 'Update')).toBe('owner-conflict');
    expect(cls(status.ALREADY_EXISTS, 'Create')).toBe('already-exists');
    expect(cls(status.INVALID_ARGUMENT, 'Update')).toBe('phase-conflict');
    expect(cls(status.FAILED_PRECONDITION, 'Update')).toBe('conflict');
    expect(cls(status.FAILED_PRECONDITION, 'Destroy')).toBe('conflict');
    expect(cls(status.FAILED_PRECONDITION, 'Watch')).toBe('invalid-bookmark');
    expect(
      isConflict(fromStatusError(bare(status.FAILED_PRECONDITION), 'Update', ref), { type: ref.type }),
    ).toBe(true);
    // a denied read is not an owner conflict
    expect(fromStatusError(bare(status.PERMISSION_DENIED), 'Get', ref)).toBeInstanceOf(RemoteCallError);
    expect(fromStatusError(bare(status.UNAVAILABLE), 'Get', ref)).toBeInstanceOf(RemoteCallError);
  });

  it('reports access denials as PERMISSION_DENIED but keeps their class', () => {
    const denied = toStatusError(new StateError('unsupported', 'read-only', ref), 'Create', { denied: true });
    expect(denied.code).toBe(status.PERMISSION_DENIED);
    expect(stateErrorCode(fromStatusError(asReceived(denied), 'Create', ref))).toBe('unsupported');
    const plain = toStatusError(new Error('no'), 'Create', { denied: true });
    expect(plain.code).toBe(status.PERMISSION_DENIED);
    const back = fromStatusError(asReceived(plain), 'Create', ref);
    expect(back).toBeInstanceOf(RemoteCallError);
    expect((back as RemoteCallError).code).toBe(status.PERMISSION_DENIED);
  });

  it('passes request errors with their code, and anything else as UNKNOWN', () => {
    const bad = toStatusError(new RequestError(status.UNIMPLEMENTED, 'nope'), 'Watch');
    expect(bad.code).toBe(status.UNIMPLEMENTED);
    expect(isMissingMethod(asReceived(bad))).toBe(false);
    expect(isMissingMethod(bare(status.UNIMPLEMENTED))).toBe(true);
    expect(toStatusError(new TypeError('bug'), 'Get').code).toBe(status.UNKNOWN);
  });
});
