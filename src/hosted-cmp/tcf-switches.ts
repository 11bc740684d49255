/**
 * The second layer's switches of an instance with `tcf` settings, and the TCF choices they make:
 * `p:<id>` purpose consent, `pl:<id>` purpose legitimate interest kept (off: objected to),
 * `sf:<id>` special feature opt-in, `v:<id>` vendor consent, `vl:<id>` vendor legitimate
 * interest kept, `cp:<id>` a publisher custom purpose's consent, `cpl:<id>` its legitimate interest
 * kept; the publisher's own TCF purposes follow the purpose switches. Their first state is the stored string's choices, else no consent and every
 * legitimate interest kept. Pure: the TC string is built from the choices by src/tcf/tc-string.ts.
 */
import type { TcfChoices } from '../tcf/tc-choices.ts';
import type { PublisherPurposes } from '../wire/publisher-tcf.ts';
import { idsOn, type Switches } from './switches.ts';
import type { TcfScope } from './tcf-scope.ts';

export function initialState(
  scope: TcfScope,
  stored: TcfChoices | null,
  publisherPurposes?: PublisherPurposes,
): Switches {
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
  for (const { id, legalBasis } of publisherPurposes?.custom ?? []) {
    if (legalBasis === 'consent') state.set(`cp:${id}`, has(stored?.publisher?.customConsents, id, false));
    else state.set(`cpl:${id}`, has(stored?.publisher?.customLegitimateInterests, id, true));
  }
  return state;
}

export function choicesOfState(state: Switches, publisherPurposes?: PublisherPurposes): TcfChoices {
  const purposeConsents = idsOn(state, 'p');
  const purposeLegitimateInterests = idsOn(state, 'pl');
  // A publisher purpose on legitimate interest stands unless the reader objected to that purpose.
  const publisher = publisherPurposes && {
    consents: (publisherPurposes.consent ?? []).filter((id) => purposeConsents.includes(id)),
    legitimateInterests: (publisherPurposes.legitimateInterest ?? []).filter((id) => state.get(`pl:${id}`) !== false),
    customConsents: idsOn(state, 'cp'),
    customLegitimateInterests: idsOn(state, 'cpl'),
  };
  return {
    purposeConsents,
    purposeLegitimateInterests,
    vendorConsents: idsOn(state, 'v'),
    vendorLegitimateInterests: idsOn(state, 'vl'),
    specialFeatureOptins: idsOn(state, 'sf'),
    ...(publisher ? { publisher } : {}),
  };
}
