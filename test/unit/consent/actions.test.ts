import { describe, expect, it, vi } from 'vitest';
import { eventOf } from '../../../src/consent/consent-state.ts';

describe('the consent actions', () => {
  it('reports a non-boolean action argument', () => {
    const report = vi.fn();
    expect(eventOf('setPurpose', { ads: 1, video: true }, report)).toEqual({
      type: 'set-purposes',
      purposes: { video: true },
    });
    expect(report).toHaveBeenCalledTimes(1);
    expect(report).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'consent-action-argument', expected: 'ads=true|false', got: '1' }),
    );
  });

  it('takes purposeConsentDefault of accept and reject only when it is a boolean', () => {
    const report = vi.fn();
    expect(eventOf('accept', { purposeConsentDefault: false }, report)).toEqual({
      type: 'decide',
      decision: 'accepted',
      purposeConsentDefault: false,
    });
    expect(eventOf('reject', { purposeConsentDefault: 'no' }, report)).toEqual({
      type: 'decide',
      decision: 'rejected',
      purposeConsentDefault: undefined,
    });
    expect(report.mock.calls.map(([d]) => d.code)).toEqual(['consent-action-argument']);
  });
});
