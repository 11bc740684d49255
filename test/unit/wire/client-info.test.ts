import { describe, expect, it } from 'vitest';
import { parseClientInfo } from '../../../src/wire/client-info.ts';
import { formatDiagnostic } from '../../../src/wire/diagnostic.ts';

describe('client-info', () => {
  it('reads the client info of a frame name', () => {
    const name = JSON.stringify({
      clientConfig: { lang: 'de', exposesTcfApi: true },
      purposeConsents: { analytics: true },
      promptTrigger: 'action',
    });
    expect(parseClientInfo(name)).toEqual({
      value: {
        clientConfig: { lang: 'de', exposesTcfApi: true },
        purposeConsents: { analytics: true },
        promptTrigger: 'action',
      },
      diagnostics: [],
    });
  });

  it('reads an empty name as no client info', () => {
    expect(parseClientInfo('')).toEqual({ value: {}, diagnostics: [] });
  });

  it('leaves out a field of the wrong type with consent-prompt-client-info', () => {
    const { value, diagnostics } = parseClientInfo(
      JSON.stringify({ clientConfig: { lang: 5 }, promptTrigger: 'load' }),
    );
    expect(value).toEqual({ clientConfig: {}, promptTrigger: 'load' });
    expect(diagnostics.map((d) => formatDiagnostic('page-consent-prompt', d))).toEqual([
      '[page-consent-prompt] consent-prompt-client-info: expected clientInfo.clientConfig.lang: a string of 2-35 characters, got 5',
    ]);
  });

  it('reads a name that is not JSON as no client info, with consent-prompt-client-info', () => {
    const { value, diagnostics } = parseClientInfo('{not json');
    expect(value).toEqual({});
    expect(diagnostics.map((d) => formatDiagnostic('page-consent-prompt', d))).toEqual([
      '[page-consent-prompt] consent-prompt-client-info: expected clientInfo: a JSON object, got "{not json"',
    ]);
  });
});
