/**
 * `consent.optOut` (docs/us-privacy.md, "The Do-Not-Sell/Share control"), in the `optOut` part
 * of the consent script, loaded at the action's first use: its arguments, the reader's country
 * and the reducer extension that records the opt-out.
 */
import type { ActionArguments, Diagnostic, DiagnosticLevel, PageRuntime } from '../runtime/index.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import { joinOptOuts, optOutsOf, parseOptOutArguments } from '../wire/us-opt-outs.ts';
import { GEO_TIMEOUT_SECONDS } from './geo-wait.ts';
import type { ConsentController } from './controller.ts';
import type { ConsentEvent, ConsentReducer } from './state.ts';

type Report = (d: Diagnostic, level?: DiagnosticLevel) => void;

/**
 * The country `<page-geo>` placed the reader in (`unknown` when it could not say); undefined
 * without `<page-geo>` or its answer within the geo wait.
 */
const countryOf = (page: PageRuntime): Promise<string | undefined> =>
  document.querySelector('page-geo')
    ? Promise.race([
        (page.whenService('geo') as Promise<{ country?: unknown }>).then(({ country }) =>
          typeof country === 'string' ? country : undefined,
        ),
        new Promise<undefined>((resolve) => setTimeout(resolve, GEO_TIMEOUT_SECONDS * 1000)),
      ])
    : Promise.resolve(undefined);

/**
 * The reducer event of `consent.optOut` (docs/us-privacy.md): the categories of its arguments for
 * a reader `<page-geo>` does not place outside the US; null after one diagnostic (a bad
 * argument, `consent-opt-out-category`; a reader elsewhere, `consent-opt-out-not-us`).
 */
export async function optOutEventOf(
  page: PageRuntime,
  args: ActionArguments,
  report: Report,
  country = countryOf,
): Promise<ConsentEvent | null> {
  const { value: categories, diagnostics } = parseOptOutArguments(args);
  for (const d of diagnostics) report(d);
  if (!categories) return null;
  const where = await country(page);
  if (where === undefined || where === 'us' || where === 'unknown') return { type: 'opt-out', categories };
  report(diagnostic('consent-opt-out-not-us', 'a reader in the US (or of unknown country)', where), 'warn');
  return null;
}

/**
 * Answers `opt-out` (docs/us-privacy.md): a rejection, with or without the prompt, whose
 * `usOptOuts` are the categories asked for now and before (an earlier reject or GPC rejection
 * stands for every category); the gate then withdraws what a reject withdraws. Ignored until
 * the state is known. A reducer extension, so the return-visit copies carry none of it.
 */
export const withOptOut =
  (reduce: ConsentReducer): ConsentReducer =>
  (model, event) => {
    const { kind } = model.state;
    if (event.type !== 'opt-out') return reduce(model, event);
    if (kind === 'pending' || kind === 'invalid') return model;
    const usOptOuts = joinOptOuts([...optOutsOf({ ...model, state: kind }), ...event.categories]);
    const open = { ...model, isPromptShown: true, pendingPurposes: {} };
    return reduce(open, { type: 'decide', decision: 'rejected', consentMetadata: { usOptOuts } });
  };

/** The controllers already extended with `withOptOut` (one per page). */
const extended = new WeakSet<object>();

/** Runs `consent.optOut` with `args` on `controller`: one diagnostic, or the opt-out recorded. */
export async function optOut(
  page: PageRuntime,
  controller: Pick<ConsentController, 'dispatch' | 'extend'>,
  args: ActionArguments,
  report: Report,
): Promise<void> {
  const event = await optOutEventOf(page, args, report);
  if (!event) return;
  if (!extended.has(controller)) controller.extend(withOptOut);
  extended.add(controller);
  controller.dispatch(event);
}
