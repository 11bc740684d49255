/**
 * The TC string a decision waits for (docs/consent.md, "TC strings from our own prompts"): with a
 * `tcf` config the TCF part builds the string of each accept or reject, and until it is in (or
 * could not be built) the decision's `isStringPending` holds the update notification, the consent
 * macros and the creative reply. A reducer extension that the signals (in the state part) install, so a page
 * without TCF carries none of it on its first screen.
 */
import type { ConsentEvent, ConsentModel, ConsentReducer } from './state.ts';

type StringModel = ConsentModel & {
  /** The decision (decisionKeyOf) for which no TC string could be built. */
  readonly tcStringFailedFor?: string | undefined;
};

/** Which decision a built string belongs to: its state and purpose choices. */
export const decisionKeyOf = (model: ConsentModel): string => JSON.stringify([model.state.kind, model.purposeConsents]);

const isPendingOf = (model: StringModel): boolean =>
  (model.state.kind === 'accepted' || model.state.kind === 'rejected') &&
  model.consentString === undefined &&
  model.tcStringFailedFor !== decisionKeyOf(model);

/** The TCF part's string for the current decision (its metadata complete); none: it could not be built. A decision's own string wins. */
function addString(
  model: StringModel,
  { type, decisionKey, ...data }: Extract<ConsentEvent, { type: 'add-string' }>,
): StringModel {
  if (!model.isStringPending || decisionKey !== decisionKeyOf(model)) return model;
  if (!data.consentString) return { ...model, tcStringFailedFor: decisionKey };
  return { ...model, ...data, saved: model.saved && { ...model.saved, ...data } };
}

/** Wraps the reducer: answers `expect-tc-string` and `add-string`, and keeps `isStringPending` up to date after every event. */
export const withTcStrings =
  (reduce: ConsentReducer): ConsentReducer =>
  (model, event) => {
    const next =
      event.type === 'add-string'
        ? addString(model, event)
        : event.type === 'expect-tc-string'
          ? model
          : reduce(model, event);
    const isStringPending = isPendingOf(next);
    return next.isStringPending === isStringPending ? next : { ...next, isStringPending };
  };
