/**
 * Messages from a CMP iframe (`promptUiSrc`, docs/consent.md, "The CMP iframe"): `consent-ui` (`ready`,
 * `enter-fullscreen`) and `consent-response` (`accept`/`reject`/`dismiss` with the CMP's
 * decision data). Messages of other types (other protocols the frame speaks) are not ours: null,
 * no diagnostic. A mistyped field is dropped with one `consent-cmp-message-invalid` diagnostic.
 */
import type { Parsed } from './diagnostic.ts';
import { type DecisionData, readConsentMetadata, readPurposeConsents } from './consent.ts';
import { collector, drop, isRecord, own, readBoolean, readFields, readNumber, readOneOf, readText } from './values.ts';

export type CmpAction = 'accept' | 'reject' | 'dismiss';

export type CmpMessage =
  /** `initialHeight` in vh (10-80) when the CMP gave a valid one. */
  | { readonly kind: 'ready'; readonly initialHeight?: number | undefined; readonly border?: boolean | undefined }
  | { readonly kind: 'enter-fullscreen' }
  /** Dismiss carries no decision data. */
  | { readonly kind: 'decision'; readonly action: CmpAction; readonly data: DecisionData };

type UiFields = { readonly action?: string; readonly initialHeight?: string; readonly border?: boolean };
type ResponseFields = Omit<DecisionData, 'consentString'> & { readonly action?: CmpAction; readonly info?: string };

const readUi = readFields<UiFields>({
  action: readOneOf(['ready', 'enter-fullscreen']),
  initialHeight: readText(4, 4, /^(1\d|[2-7]\d|80)vh$/, 'a height from "10vh" to "80vh"'),
  border: readBoolean,
});

const readResponse = readFields<ResponseFields>({
  action: readOneOf<CmpAction>(['accept', 'reject', 'dismiss']),
  info: readText(8192),
  purposeConsents: readPurposeConsents,
  consentMetadata: readConsentMetadata,
  tcfPolicyVersion: readNumber(0, 2 ** 31 - 1),
});

/** A `consent-ui` message; null without a valid action. */
function uiMessageOf({ action, initialHeight, border }: UiFields): CmpMessage | null {
  if (action === 'ready')
    return { kind: 'ready', initialHeight: initialHeight ? Number.parseInt(initialHeight, 10) : undefined, border };
  return action ? { kind: 'enter-fullscreen' } : null;
}

/** A `consent-response` message, without absent fields; dismiss carries no data. */
function responseOf({ action, info, ...rest }: ResponseFields): CmpMessage | null {
  const data = { consentString: info, ...rest };
  if (!action) return null;
  return {
    kind: 'decision',
    action,
    data:
      action === 'dismiss' ? {} : Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined)),
  };
}

/** One message event's `data`; null when it is not a valid CMP message. */
export function parseCmpMessage(data: unknown): Parsed<CmpMessage | null> {
  const into = collector('consent-cmp-message-invalid');
  const type = isRecord(data) ? own(data, 'type') : undefined;
  const ui = type === 'consent-ui' ? readUi(into, data, '') : undefined;
  const response = type === 'consent-response' ? readResponse(into, data, '') : undefined;
  const value = ui ? uiMessageOf(ui) : response ? responseOf(response) : null;
  if ((ui || response) && isRecord(data) && own(data, 'action') == null) drop(into, 'action', 'an action', undefined);
  return { value, diagnostics: into.diagnostics };
}
