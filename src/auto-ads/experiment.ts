/**
 * The experiment of docs/auto-ads.md, "Experiments": picks the page view's arm (weighted; kept in
 * the site store, and reused, when consent allows storage, else drawn for this page view only),
 * hands `<page-auto-ads>` the config with the arm's settings, and at the end of the page view
 * (the first `pagehide` or hidden tab) sends the arm's counts to `onExperimentHref` with
 * `navigator.sendBeacon`. Nothing that identifies the reader is sent. Loaded as the part
 * `page-auto-ads-experiment`; choices: docs/decisions/auto-ads-experiments.md.
 */
import type { Diagnostic, DiagnosticLevel, PageRuntime } from '../runtime/index.ts';
import type { AutoAdsConfig } from '../wire/auto-ads-config.ts';
import {
  applyArm,
  type Experiment,
  type ExperimentArm,
  parseExperiment,
  pickArm,
  readStoredArm,
} from '../wire/auto-ads-experiment.ts';
import { parseLoadableUrl } from '../wire/url.ts';
import { startMeasuring } from './experiment-measure.ts';
import { watchStorageConsent, watchTcf } from './storage-consent.ts';

/** The site storage key (src/runtime/storage.ts) of the reader's arm: `{"id": experiment, "arm": arm}`. */
export const EXPERIMENT_STORAGE_KEY = 'auto-ads-experiment';
/** How long the arm waits for the consent API's first answer before it is drawn for this page view only. */
export const CONSENT_WAIT_MS = 1000;
/** The time-out of the `fetch` that stands in for a refused `sendBeacon`. */
export const REPORT_TIMEOUT_MS = 5000;

export type ExperimentOptions = {
  readonly page: PageRuntime;
  readonly config: AutoAdsConfig;
  /** The config's URL: a relative `onExperimentHref` is resolved against it. */
  readonly configUrl: string;
  readonly report: (d: Diagnostic, level?: DiagnosticLevel) => void;
};

export type ExperimentPart = { assign(options: ExperimentOptions): Promise<AutoAdsConfig> };

/** Resolves once consent's answer is known (the policy and, where TCF applies, purpose 1), at most after CONSENT_WAIT_MS. */
function watchConsent(page: PageRuntime, onUpdate: () => void) {
  let settle = () => {};
  const settled = new Promise<void>((resolve) => (settle = resolve));
  let isPolicyKnown = false;
  const check = () => {
    if (isPolicyKnown && tcf() !== undefined) settle();
    onUpdate();
  };
  const tcf = watchTcf(check);
  tcf();
  const isAllowed = watchStorageConsent(page, tcf, () => {
    isPolicyKnown = true;
    check();
  });
  const wait = Promise.race([settled, new Promise((resolve) => setTimeout(resolve, CONSENT_WAIT_MS))]);
  return { isAllowed, wait };
}

/** Sends the counts once, at the end of the page view; `beforeSend` runs first. */
function startReporting(url: URL, experiment: Experiment, arm: ExperimentArm, beforeSend: () => void) {
  const stop = startMeasuring();
  let isSent = false;
  const send = () => {
    if (isSent) return;
    isSent = true;
    beforeSend();
    const body = JSON.stringify({ experiment: experiment.id, arm: arm.id, ...stop() });
    // A string is sent as text/plain: no preflight. A refused beacon (queue full) goes by fetch.
    if (navigator.sendBeacon?.(url.href, body)) return;
    fetch(url.href, {
      method: 'POST',
      body,
      keepalive: true,
      credentials: 'omit',
      signal: AbortSignal.timeout(REPORT_TIMEOUT_MS),
    }).catch(() => {});
  };
  addEventListener('pagehide', send);
  document.addEventListener('visibilitychange', () => document.hidden && send());
}

/** The config this page view uses: the base config when the experiment is missing or invalid. */
export async function assignExperiment(options: ExperimentOptions): Promise<AutoAdsConfig> {
  const { page, config, report } = options;
  const parsed = parseExperiment(config.experimentSource);
  for (const d of parsed.diagnostics) report(d, 'warn');
  const experiment = parsed.value;
  if (!experiment) return config;
  let arm: ExperimentArm | undefined;
  const keep = () => {
    if (arm && isAllowed()) page.storage.set(EXPERIMENT_STORAGE_KEY, { id: experiment.id, arm: arm.id });
  };
  const { isAllowed, wait } = watchConsent(page, keep);
  await wait;
  const stored = isAllowed() ? readStoredArm(page.storage.get(EXPERIMENT_STORAGE_KEY), experiment) : undefined;
  arm = stored ?? pickArm(experiment.arms, Math.random());
  keep();
  const url = experiment.reportHref && parseLoadableUrl(experiment.reportHref, options.configUrl);
  if (url) startReporting(url, experiment, arm, keep);
  return applyArm(config, arm);
}
