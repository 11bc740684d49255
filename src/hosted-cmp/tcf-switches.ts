/**
 * The second layer's switches of an instance with `tcf` settings, and the TCF choices they make:
 * `p:<id>` purpose consent, `pl:<id>` purpose legitimate interest kept (off: objected to),
 * `sf:<id>` special feature opt-in, `v:<id>` vendor consent, `vl:<id>` vendor legitimate
 * interest kept. Their first state is the stored string's choices, else no consent and every
 * legitimate interest kept. Pure: the TC string is built from the choices by src/tcf/tc-string.ts.
 */
import type { TcfChoices } from '../tcf/tc-choices.ts';
import { idsOn, type Switches } from './switches.ts';
import type { TcfScope } from './tcf-scope.ts';

export function initialState(scope: TcfScope, stored: TcfChoices | null): Switches {
  const state: Switches = new Map();
  const has = (list: readonly number[] | undefined, id: number, fallback: boolean) =>
    stored && list ? list.includes(id) : fallback;
  for (const id of scope.purposes) state.set(`p:${id}`, has(stored?.purposeConsents, id, false));
  for (const id of scope.legIntPurposes) state.set(`pl:${id}`, has(stored?.purposeLegitimateInterests, id, true));
  for (const id of scope.specialFeatures) state.set(`sf:${id}`, has(stored?.specialFeatureOptins, id, false));
  for (const vendor of scope.vendors) {
    state.set(`v:${vendor.id}`, has(stored?.vendorConsents, vendor.id, false));
    if (vendor.legIntPurposes.length)
      state.set(`vl:${vendor.id}`, has(stored?.vendorLegitimateInterests, vendor.id, true));
  }
  return state;
}

export const choicesOfState = (state: Switches): TcfChoices => ({
  purposeConsents: idsOn(state, 'p'),
  purposeLegitimateInterests: idsOn(state, 'pl'),
  vendorConsents: idsOn(state, 'v'),
  vendorLegitimateInterests: idsOn(state, 'vl'),
  specialFeatureOptins: idsOn(state, 'sf'),
});
