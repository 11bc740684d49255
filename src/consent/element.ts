/**
 * `<page-consent>`: wires the pure config, state, policy, remote and UI modules to the page.
 * One element per page; never blocked by consent itself.
 */
import type { ActionArguments, Layout, PageRuntime } from '../runtime/types.ts';
import type { Diagnostic, DiagnosticLevel } from '../runtime/diagnostics.ts';
import { type ConsentConfig, isObject, parseConsentConfig } from './config.ts';
import { diagnose } from './diagnose.ts';
import { detailOf, installConsentProvider } from './provider.ts';
import { checkConsent, checkRequestOf, notifyUpdate, updateRequestOf } from './remote.ts';
import { type ConsentEvent, type Decision, initialModel, parseStored, reduceConsent, type StoredConsent } from './state.ts';
import { createUi, selectUi, type UiChoice } from './ui.ts';

export const GEO_TIMEOUT_MS = 5_000;
const USER_KEY = 'consent-user';

type Geo = { readonly matchedGroups: readonly string[] };

/** The JSON of the one `<script type="application/json">` child. */
function readJson(element: Element, report: (d: Diagnostic) => void): unknown {
  const scripts = element.querySelectorAll<HTMLScriptElement>(':scope>script');
  const script = scripts[0];
  if (scripts.length !== 1 || script?.type !== 'application/json') {
    return report(diagnose('consent-config-script', 'one <script type="application/json"> child', scripts.length));
  }
  try {
    return JSON.parse(script.text);
  } catch {
    report(diagnose('consent-config-json', 'valid JSON', script.text));
  }
}

/** Boolean action arguments; any other value is reported and skipped. */
function booleans(args: ActionArguments, report: (d: Diagnostic) => void): Record<string, boolean> {
  const result: Record<string, boolean> = {};
  for (const [name, value] of Object.entries(args)) {
    if (typeof value === 'boolean') result[name] = value;
    else report(diagnose('consent-action-argument', `${name}=true|false`, value));
  }
  return result;
}

async function startConsent(page: PageRuntime, element: HTMLElement): Promise<void> {
  const report = (d: Diagnostic, level?: DiagnosticLevel) => page.report(element, d, level);
  let model = initialModel;
  let config: ConsentConfig | null = null;
  let render = (_ui: UiChoice) => {};
  let prompt: HTMLElement | null = null;
  let post: HTMLElement | null = null;
  let lastDetail = '';
  const notify = installConsentProvider(page, () => ({ ...model, fallbackAction: config?.fallbackAction ?? 'dismiss', hasPrompt: !!prompt }));
  const key = () => `consent:${config?.consentInstanceId}`;
  let written: StoredConsent | null = null;

  const persist = () => {
    const { saved } = model;
    if (JSON.stringify(saved) === JSON.stringify(written)) return;
    written = saved;
    if (!saved) return page.storage.remove(key());
    page.storage.set(key(), saved);
    const href = config?.onUpdateHref;
    if (!href || !config) return;
    let userId = page.storage.get(USER_KEY);
    if (typeof userId !== 'string') page.storage.set(USER_KEY, (userId = crypto.randomUUID?.() ?? String(Math.random()).slice(2)));
    if (typeof userId !== 'string') return;
    const body = updateRequestOf(config.consentInstanceId, userId, saved);
    page.expandUrl(href).then((url) => notifyUpdate(url, body, report));
  };

  const dispatch = (event: ConsentEvent) => {
    const previous = model;
    model = reduceConsent(model, event);
    persist();
    render(selectUi(model, !!prompt, !!post));
    const seconds = config?.timeoutSeconds;
    if (model.state.kind === 'unknown' && previous.state.kind !== 'unknown' && seconds != null) {
      setTimeout(() => dispatch({ type: 'timeout' }), seconds * 1000);
    }
    notify();
    const detail = detailOf(model);
    if (JSON.stringify(detail) === lastDetail) return;
    lastDetail = JSON.stringify(detail);
    const change = new CustomEvent('consent-change', { bubbles: true, detail });
    element.dispatchEvent(change);
    page.triggerAction(element, 'consent-change', change);
  };

  const json = element.id ? readJson(element, report) : report(diagnose('consent-id-missing', 'an id on <page-consent>', null));
  let geo: Geo = { matchedGroups: [] };
  if (element.ownerDocument.querySelector('page-geo')) {
    const timeout = new Promise((resolve) => setTimeout(resolve, GEO_TIMEOUT_MS));
    const answer = (await Promise.race([page.whenService('geo'), timeout])) as Geo | undefined;
    if (answer) geo = answer;
    else report(diagnose('consent-geo-timeout', `<page-geo> within ${GEO_TIMEOUT_MS / 1000} s`, null), 'warn');
  } else if (isObject(json) && json.geoOverride) report(diagnose('consent-geo-missing', '<page-geo> for geoOverride', null), 'warn');
  const options = { geoGroups: geo.matchedGroups, type: element.getAttribute('type'), baseUrl: location.href };
  const parsed = json === undefined ? null : parseConsentConfig(json, options);
  for (const d of parsed?.diagnostics ?? []) report(d, parsed?.value ? 'warn' : 'error');
  config = parsed?.value ?? null;
  if (!config) return dispatch({ type: 'invalid' });

  const find = (id: string | undefined, root: ParentNode, code: string) => {
    const found = id ? root.querySelector<HTMLElement>(`#${CSS.escape(id)}`) : null;
    if (id && !found) report(diagnose(code, `an element with id "${id}"`, null));
    return found;
  };
  prompt = find(config.promptUI, element, 'consent-prompt-missing');
  post = find(config.postPromptUI, element.ownerDocument, 'consent-post-prompt-missing');
  render = createUi(element, { prompt, post, overlay: config.overlay, caption: config.consentPromptCaption });
  const decideWith = (decision: Decision) => (args: ActionArguments) =>
    dispatch({ type: 'decide', decision, purposeConsentDefault: booleans(args, report).purposeConsentDefault });
  page.registerAction(element, 'accept', decideWith('accepted'));
  page.registerAction(element, 'reject', decideWith('rejected'));
  page.registerAction(element, 'dismiss', () => dispatch({ type: 'decide', decision: 'dismissed' }));
  page.registerAction(element, 'prompt', () => dispatch({ type: 'prompt' }));
  page.registerAction(element, 'setPurpose', (args) => dispatch({ type: 'set-purposes', purposes: booleans(args, report) }));
  page.registerMacro('CONSENT_INFO', (field = '') => {
    const { state, consentString, purposeConsents, consentMetadata, tcfPolicyVersion } = model;
    const consentStateValue = state.kind === 'accepted' || state.kind === 'rejected' ? state.kind : 'unknown';
    const info: Record<string, unknown> = { consentStateValue, consentString, purposeConsents, consentMetadata, tcfPolicyVersion, isDirty: false };
    return JSON.stringify(info[field]) ?? '';
  });

  written = parseStored(page.storage.get(key()));
  const { consentInstanceId, consentRequired, checkConsentHref, matchedGeoGroup } = config;
  dispatch({ type: 'start', stored: written, consentRequired, requiredPurposes: config.purposeConsentRequired });
  if (!checkConsentHref) return;
  const request = checkRequestOf(consentInstanceId, written, matchedGeoGroup ?? geo.matchedGroups[0] ?? null);
  const result = await checkConsent(await page.expandUrl(checkConsentHref), request, config.xssiPrefix);
  for (const d of result.diagnostics) report(d, result.value ? 'warn' : 'error');
  dispatch(result.value ? { type: 'response', response: result.value } : { type: 'failure' });
}

export function createConsentElement(page: PageRuntime) {
  let active: Element | null = null;
  return class PageConsentElement extends page.PageElement {
    override isBlockable() {
      return false;
    }

    override isLayoutSupported(layout: Layout) {
      return layout === 'nodisplay' || layout === 'container';
    }

    override buildCallback() {
      if (active) return page.report(this.element, diagnose('consent-duplicate', 'one <page-consent> per page', active.id));
      active = this.element;
      startConsent(page, this.element);
    }
  };
}
