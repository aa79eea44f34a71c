import { describe, expect, it } from 'vitest';
import { joinHostPort, splitHostPort, TRUSTD_PORT, withPort } from '../../src/trustd/index.js';

describe('trustd endpoints', () => {
  it('adds trustd’s port where an endpoint names none, as EnsureEndpointsHavePorts', () => {
    expect(TRUSTD_PORT).toBe(50001);
    expect(withPort(['10.5.0.2', 'cp.example.com', '10.5.0.3:6000', '[fd00::2]:7000', 'fd00::3'])).toEqual([
      '10.5.0.2:50001',
      'cp.example.com:50001',
      '10.5.0.3:6000',
      '[fd00::2]:7000',
      '[fd00::3]:50001',
    ]);
    expect(withPort(['127.0.0.1'], 41234)).toEqual(['127.0.0.1:41234']);
  });

  it('splits and joins hosts and ports, bracketing IPv6', () => {
    expect(splitHostPort('[::1]:5')).toEqual({ host: '::1', port: 5 });
    expect(splitHostPort('[::1]')).toEqual({ host: '::1' });
    expect(splitHostPort('::1')).toEqual({ host: '::1' });
    expect(splitHostPort('h:80')).toEqual({ host: 'h', port: 80 });
    expect(joinHostPort('::1', 5)).toBe('[::1]:5');
    expect(joinHostPort('10.0.0.1', 5)).toBe('10.0.0.1:5');
  });
});
