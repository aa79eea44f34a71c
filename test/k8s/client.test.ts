// How an API server's error answers are classified, as client-go's apierrors predicates do: by the Status
// object's reason, else by the HTTP status. (The calls themselves run against a real API server in
// test/integration/k8s/manifest-apply.test.ts.)
import { describe, expect, it } from 'vitest';
import {
  isAlreadyExists,
  isBadRequest,
  isInvalid,
  isMethodNotSupported,
  isNotFound,
  KubeError,
  statusError,
} from '../../src/k8s/index.js';

const status = (code: number, reason: string, message: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message });

describe('statusError', () => {
  it('keeps the Status reason and message', () => {
    const e = statusError(
      'GET /api/v1/namespaces/x',
      404,
      status(404, 'NotFound', 'namespaces "x" not found'),
    );
    expect(e).toBeInstanceOf(KubeError);
    expect(e.message).toBe('GET /api/v1/namespaces/x: namespaces "x" not found');
    expect([e.status, e.reason]).toEqual([404, 'NotFound']);
    expect(isNotFound(e)).toBe(true);
    expect(isInvalid(e)).toBe(false);
  });

  it('classifies each reason the apply pass decides on', () => {
    expect(isAlreadyExists(statusError('POST', 409, status(409, 'AlreadyExists', 'exists')))).toBe(true);
    // a conflict is a 409 too, but not an AlreadyExists
    expect(isAlreadyExists(statusError('PUT', 409, status(409, 'Conflict', 'modified')))).toBe(false);
    expect(isInvalid(statusError('PATCH', 422, status(422, 'Invalid', 'bad field')))).toBe(true);
    expect(isBadRequest(statusError('PATCH', 400, status(400, 'BadRequest', 'bad yaml')))).toBe(true);
    expect(isMethodNotSupported(statusError('PATCH', 405, status(405, 'MethodNotAllowed', 'no')))).toBe(true);
  });

  it('falls back to the HTTP status when the body is not a Status', () => {
    const e = statusError('GET /x', 404, '404 page not found\n');
    expect(e.message).toBe('GET /x: 404 page not found');
    expect(isNotFound(e)).toBe(true);
    expect(isNotFound(new KubeError('transport', 'refused'))).toBe(false);
  });
});
