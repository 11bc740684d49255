/**
 * The reference server's instance config (docs/server.md, "Instances and policies"), read with
 * the readers the page uses for the same values: `sharedData` as a check answer's, geo groups
 * as `<page-geo>`'s, URLs by the URL rule (absolute http(s) here, since there is no page to
 * resolve against). Diagnostics name the field; the server refuses any (server/strict.ts).
 */
import { parseGeoGroups, type SubdivisionFallback } from './geo-groups.ts';
import { type GppApproach, type GppConfig, parseGppConfig } from './gpp-config.ts';
import { type SharedData, readSharedData } from './consent.ts';
import { readPurposeId, readPurposeMap } from './purpose-id.ts';
import { parseLoadableUrl } from './url.ts';
import { type GoogleAtps, readGoogleAtps } from './google-atps.ts';
import {
  type PublisherPurposes,
  type PublisherRestriction,
  readPublisherPurposes,
  readPublisherRestrictions,
} from './publisher-tcf.ts';
import {
  drop,
  isRecord,
  type Read,
  readBoolean,
  readFields,
  readList,
  readMap,
  readNumber,
  readOneOf,
  readText,
  type Schema,
} from './values.ts';

export type PromptPurpose = { readonly id: string; readonly label: string; readonly description?: string };

export type PromptVendor = { readonly name: string; readonly url?: string; readonly purposes?: readonly string[] };

/** What the hosted prompt (`/cmp/prompt.html`) shows for an instance. */
export type PromptConfig = {
  readonly title: string;
  readonly message: string;
  readonly purposes: readonly PromptPurpose[];
  readonly vendors: readonly PromptVendor[];
  readonly privacyPolicyUrl?: string;
};

/** Per-instance policy, as edited through the admin API; absent fields are null (or empty). */
export type InstanceConfig = {
  /** `consentRequired` per geo group; the `default` entry applies when no group matches. */
  readonly consentRequired: Readonly<Record<string, boolean>>;
  /** Group name -> entries, as `<page-geo>`'s ISOCountryGroups, for requests without `matchedGeoGroup`. */
  readonly geoGroups: Readonly<Record<string, readonly string[]>>;
  /** Where a reader of known country and unknown subdivision falls, as `<page-geo>`'s `subdivisionUnknown`. */
  readonly subdivisionUnknown: SubdivisionFallback;
  readonly sharedData: SharedData | null;
  readonly purposeConsentRequired: readonly string[] | null;
  readonly xssiPrefix: string | null;
  readonly prompt: PromptConfig | null;
  /** TCF settings (GVL vendors, purpose mapping, special features, country, CMP ids); null: no TC strings. */
  readonly tcf: InstanceTcf | null;
  /** The US privacy (GPP) settings, in the shape of the page's `gpp` object; null: none. */
  readonly gpp: InstanceGpp | null;
};

/** A GPP section's notice and MSPA fields (`SaleOptOutNotice: 1`). */
type GppFields = Readonly<Record<string, number>>;

/**
 * An instance's `gpp` settings as the page's consent config writes them (docs/consent.md, "US
 * privacy: GPP sections"): `approach`, `usnat` and a state section's object by its name (`usca`).
 */
export type InstanceGpp = {
  readonly approach?: GppApproach;
  readonly [section: `us${string}`]: GppFields | undefined;
};

/** An instance's `tcf` settings: what its TC strings carry (the frame adds the reader's `consentLanguage`). */
export type InstanceTcf = {
  readonly cmpId: number;
  readonly cmpVersion: number;
  /** The group of sites the choices apply to (the first layer's scope); without it, "this site". */
  readonly siteGroup?: SiteGroup;
  readonly vendors: number[];
  readonly purposes?: Record<string, number[]>;
  readonly specialFeatures?: number[];
  readonly publisherCountryCode?: string;
  /** Google's ATPs the prompt lists under "Other partners" and the AC string carries: ids, or "all" of GOOGLE_ATP_LIST. */
  readonly googleAtps?: GoogleAtps;
  /** The string's publisher restrictions and publisher TC segment (src/wire/publisher-tcf.ts). */
  readonly publisherRestrictions?: PublisherRestriction[];
  readonly publisherPurposes?: PublisherPurposes;
};

/** A group of sites sharing the reader's choices: its name and the page listing its sites. */
export type SiteGroup = { readonly name: string; readonly url: string };

/** An absolute http(s) URL of at most 2,000 characters. */
const readHttpUrl: Read<string> = (into, value, field) =>
  typeof value === 'string' && value.length <= 2000 && parseLoadableUrl(value, 'about:blank')
    ? readText(2000, 1)(into, value, field)
    : drop(into, field, 'an http(s) URL', value);

/**
 * `readFields`, with the (string) fields in `required` read: an object missing one is refused
 * with one diagnostic (its reader's, when the field is there but refused).
 */
function withRequired<T>(schema: Schema<T>, required: readonly (keyof T & string)[]): Read<T> {
  const read = readFields(schema);
  return (into, value, field) => {
    const object = read(into, value, field);
    if (!object) return;
    const missing = required.find((key) => object[key] === undefined);
    if (missing === undefined) return object;
    const given = isRecord(value) ? value[missing] : undefined;
    return given === undefined || given === null ? drop(into, `${field}.${missing}`, 'a string', undefined) : undefined;
  };
}

const readPurpose = withRequired<PromptPurpose>(
  { id: readPurposeId, label: readText(200, 1), description: readText(2000, 1) },
  ['id', 'label'],
);

const readVendor = withRequired<PromptVendor>(
  { name: readText(200, 1), url: readHttpUrl, purposes: readList(readPurposeId) },
  ['name'],
);

type PromptFields = Omit<PromptConfig, 'purposes' | 'vendors'> & {
  readonly purposes?: PromptPurpose[];
  readonly vendors?: PromptVendor[];
};

const readPromptFields = withRequired<PromptFields>(
  {
    title: readText(200, 1),
    message: readText(4000, 1),
    purposes: readList(readPurpose, 50),
    vendors: readList(readVendor, 1000),
    privacyPolicyUrl: readHttpUrl,
  },
  ['title', 'message'],
);

const readPromptConfig: Read<PromptConfig> = (into, value, field) => {
  const fields = readPromptFields(into, value, field);
  return fields && { ...fields, purposes: fields.purposes ?? [], vendors: fields.vendors ?? [] };
};

const readGeoGroups: Read<Record<string, readonly string[]>> = (into, value, field) => {
  const { value: groups, diagnostics } = parseGeoGroups(value, field);
  into.diagnostics.push(...diagnostics);
  return groups;
};

/** A bare boolean means the same answer in every group. */
const readConsentRequired: Read<Record<string, boolean>> = (into, value, field) =>
  typeof value === 'boolean' ? { default: value } : readMap(readBoolean)(into, value, field);

export const readSiteGroup = withRequired<SiteGroup>({ name: readText(100, 1), url: readHttpUrl }, ['name', 'url']);

/** CMP ids 0 and 1 are not valid in a TC string; each vendor listed once. */
const readTcfFields = withRequired<InstanceTcf>(
  {
    cmpId: readNumber(2, 4095),
    cmpVersion: readNumber(1, 4095),
    siteGroup: readSiteGroup,
    vendors: readList(readNumber(1, 65_535), 5000),
    purposes: readPurposeMap(readList(readNumber(1, 24), 24), 24),
    specialFeatures: readList(readNumber(1, 12), 12),
    publisherCountryCode: (into, value, field) =>
      readText(2, 2, /^[A-Za-z]{2}$/, 'a two-letter country code')(into, value, field)?.toUpperCase(),
    googleAtps: readGoogleAtps,
    publisherRestrictions: readPublisherRestrictions,
    publisherPurposes: readPublisherPurposes,
  },
  ['cmpId', 'cmpVersion', 'vendors'],
);

const TCF_FIELDS = [
  'cmpId',
  'cmpVersion',
  'siteGroup',
  'vendors',
  'purposes',
  'specialFeatures',
  'publisherCountryCode',
  'googleAtps',
  'publisherRestrictions',
  'publisherPurposes',
];

/** The `tcf` settings; an unknown field is refused (a typo would otherwise drop a setting silently). */
export const readInstanceTcf: Read<InstanceTcf> = (into, value, field) => {
  const unknown = isRecord(value) ? Object.keys(value).find((key) => !TCF_FIELDS.includes(key)) : undefined;
  if (unknown !== undefined)
    return drop(
      into,
      `${field}.${unknown}`,
      `one of the fields ${TCF_FIELDS.join(', ')}`,
      (value as Record<string, unknown>)[unknown],
    );
  const tcf = readTcfFields(into, value, field);
  const duplicate = tcf ? tcf.vendors.findIndex((id, index) => tcf.vendors.indexOf(id) !== index) : -1;
  return duplicate < 0
    ? tcf
    : drop(into, `${field}.vendors[${duplicate}]`, 'each vendor once', tcf!.vendors[duplicate]);
};

/** The parsed settings written back in the page's shape: the sections beside `approach` and `usnat`. */
export const gppJsonOf = ({ approach, usnat, sections }: GppConfig): InstanceGpp => ({
  ...(approach && { approach }),
  ...(usnat && { usnat }),
  ...sections,
});

/** `gpp`, read by the page's own parser (gpp-config.ts): the same fields, values and diagnostics. */
const readInstanceGpp: Read<InstanceGpp> = (into, value) => {
  const { value: gpp, diagnostics } = parseGppConfig(value);
  into.diagnostics.push(...diagnostics);
  return gpp ? gppJsonOf(gpp) : undefined;
};

type ConfigFields = { readonly [K in keyof InstanceConfig]?: NonNullable<InstanceConfig[K]> };

export const INSTANCE_CONFIG: Schema<ConfigFields> = {
  consentRequired: readConsentRequired,
  geoGroups: readGeoGroups,
  subdivisionUnknown: readOneOf<SubdivisionFallback>(['strictest', 'national']),
  sharedData: readSharedData,
  purposeConsentRequired: readList(readPurposeId),
  xssiPrefix: readText(32, 1),
  prompt: readPromptConfig,
  tcf: readInstanceTcf,
  gpp: readInstanceGpp,
};

/** Missing fields take the defaults; `consentRequired` always ends up with a `default` entry. */
export const readInstanceConfig: Read<InstanceConfig> = (into, value, field) => {
  const fields = readFields(INSTANCE_CONFIG)(into, value, field);
  return (
    fields && {
      consentRequired: { default: true, ...fields.consentRequired },
      geoGroups: fields.geoGroups ?? {},
      subdivisionUnknown: fields.subdivisionUnknown ?? 'strictest',
      sharedData: fields.sharedData ?? null,
      purposeConsentRequired: fields.purposeConsentRequired ?? null,
      xssiPrefix: fields.xssiPrefix ?? null,
      prompt: fields.prompt ?? null,
      tcf: fields.tcf ?? null,
      gpp: fields.gpp ?? null,
    }
  );
};
