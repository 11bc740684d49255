/**
 * The `experiment` of an auto-ads config (docs/auto-ads.md, "Experiments"): two or three arms of
 * ad settings, each with a weight, and `onExperimentHref`, where each page view's counts go. Kept
 * unread by the config parser (`experimentSource`) and read here, by the experiment part, the
 * server and the validator. Any bad field drops the whole experiment with one
 * `auto-ads-experiment-invalid` per bad field, and the config's own settings apply. Also the
 * beacon's body as the server reads it, and the reader's stored arm. Choices:
 * docs/decisions/auto-ads-experiments.md.
 */
import type { AutoAdsConfig } from './auto-ads-config.ts';
import { diagnostic, type Parsed } from './diagnostic.ts';
import {
  collector,
  type Collector,
  drop,
  isRecord,
  type Json,
  optional,
  own,
  type Read,
  readBoolean,
  readNumber,
  readObject,
  readText,
} from './values.ts';
import { parseLoadableUrl } from './url.ts';

/** The settings an arm may override; absent ones keep the config's. */
export type ArmSettings = {
  readonly maximumAdCount?: number;
  readonly isAnchorAdEnabled?: boolean;
  /** false drops the config's vignette for this arm. */
  readonly isVignetteEnabled?: boolean;
  /** false drops the config's side rails for this arm. */
  readonly isSideRailEnabled?: boolean;
};

export type ExperimentArm = { readonly id: string; readonly weight: number; readonly settings: ArmSettings };

export type Experiment = {
  readonly id: string;
  readonly arms: readonly ExperimentArm[];
  /** `onExperimentHref` as written (absolute, or relative to the config's URL); undefined: nothing is sent. */
  readonly reportHref: string | undefined;
};

/** What one page view reports (the beacon's body): no identifier, only the arm and counts. */
export type ExperimentReport = {
  readonly experiment: string;
  readonly arm: string;
  readonly adsPlaced: number;
  readonly viewable: number;
  /** The page view's cumulative layout shift (largest session window). */
  readonly layoutShift: number;
};

export const MIN_ARMS = 2;
export const MAX_ARMS = 3;
/** The most ads or viewable impressions one page view may report. */
export const MAX_REPORTED_ADS = 1000;
const NAME = /^[A-Za-z0-9._-]+$/;
const readName = readText(64, 1, NAME, 'a name of 1-64 letters, digits or . _ -');
const readWeight = readNumber(1, 1000);
const readCount = readNumber(0, MAX_REPORTED_ADS);
const readShift = readNumber(0, 100, false);

type SettingReader = readonly [keyof ArmSettings, Read<number | boolean>];

/** The overridable settings, by their wire names. */
const SETTINGS: Readonly<Record<string, SettingReader>> = {
  maxAdCount: ['maximumAdCount', readNumber(0, 1000)],
  anchor: ['isAnchorAdEnabled', readBoolean],
  vignette: ['isVignetteEnabled', readBoolean],
  sideRail: ['isSideRailEnabled', readBoolean],
};

const readSettings: Read<ArmSettings> = (into, value, field) => {
  const settings = readObject(into, value, field);
  if (!settings) return;
  const entries: [string, unknown][] = [];
  for (const key of Object.keys(settings)) {
    const known = own(SETTINGS, key);
    if (!known) drop(into, `${field}.${key}`, `one of ${Object.keys(SETTINGS).join(', ')}`, key);
    else entries.push([known[0], known[1](into, settings[key], `${field}.${key}`)]);
  }
  return Object.fromEntries(entries) as ArmSettings;
};

const readArm: Read<ExperimentArm> = (into, value, field) => {
  const arm = readObject(into, value, field);
  if (!arm) return;
  const id = readName(into, own(arm, 'id'), `${field}.id`);
  const weight = readWeight(into, own(arm, 'weight'), `${field}.weight`);
  const settings = optional(into, arm, 'settings', readSettings, `${field}.settings`) ?? {};
  return id === undefined || weight === undefined ? undefined : { id, weight, settings };
};

function readArms(into: Collector, value: unknown, field: string): ExperimentArm[] | undefined {
  if (!Array.isArray(value) || value.length < MIN_ARMS || value.length > MAX_ARMS)
    return drop(into, field, `an array of ${MIN_ARMS} or ${MAX_ARMS} arms`, value);
  const arms: ExperimentArm[] = [];
  const ids: unknown[] = [];
  value.forEach((item, index) => {
    const arm = readArm(into, item, `${field}[${index}]`);
    const id = isRecord(item) ? own(item, 'id') : undefined;
    if (id !== undefined && ids.includes(id)) drop(into, `${field}[${index}].id`, 'an id no other arm has', id);
    else if (arm) arms.push(arm);
    ids.push(id);
  });
  return arms;
}

/** `onExperimentHref`: an http(s) URL, absolute or relative to the config's URL. */
const readHref: Read<string> = (into, value, field) => {
  const href = readText(2000, 1)(into, value, field);
  return href !== undefined && parseLoadableUrl(href, 'https://config.invalid/')
    ? href
    : href === undefined
      ? undefined
      : drop(into, field, 'an http(s) URL, absolute or relative to the config', href);
};

/**
 * The experiment of a config (`source`: the config object as fetched); undefined without one, or
 * with diagnostics when any of its fields is bad.
 */
export function parseExperiment(source: Json | undefined): Parsed<Experiment | undefined> {
  const into = collector('auto-ads-experiment-invalid');
  const value = source && own(source, 'experiment');
  if (!source || value === undefined || value === null) return { value: undefined, diagnostics: [] };
  const experiment = readObject(into, value, 'experiment');
  const id = experiment && readName(into, own(experiment, 'id'), 'experiment.id');
  const arms = experiment && readArms(into, own(experiment, 'arms'), 'experiment.arms');
  const reportHref = optional(into, source, 'onExperimentHref', readHref);
  if (into.diagnostics.length || id === undefined || !arms) return { value: undefined, diagnostics: into.diagnostics };
  return { value: { id, arms, reportHref }, diagnostics: [] };
}

/** The arm a draw in [0, 1) falls in, each arm taking its weight's share of the range. */
export function pickArm(arms: readonly ExperimentArm[], draw: number): ExperimentArm {
  const total = arms.reduce((sum, arm) => sum + arm.weight, 0);
  let bound = 0;
  for (const arm of arms) {
    bound += arm.weight / total;
    if (draw < bound) return arm;
  }
  return arms[arms.length - 1]!;
}

/** The stored arm (`{id, arm}` in the site store) when it names an arm of this experiment. */
export function readStoredArm(value: unknown, experiment: Experiment): ExperimentArm | undefined {
  if (!isRecord(value) || own(value, 'id') !== experiment.id) return undefined;
  const id = own(value, 'arm');
  return experiment.arms.find((arm) => arm.id === id);
}

/** The config with the arm's settings in place of its own. */
export function applyArm(config: AutoAdsConfig, { settings }: ExperimentArm): AutoAdsConfig {
  const { maximumAdCount, isAnchorAdEnabled, isVignetteEnabled, isSideRailEnabled } = settings;
  return {
    ...config,
    constraints: maximumAdCount === undefined ? config.constraints : { ...config.constraints, maximumAdCount },
    isAnchorAdEnabled: isAnchorAdEnabled ?? config.isAnchorAdEnabled,
    formats: config.formats.filter(
      ({ type }) => (type === 'vignette' ? isVignetteEnabled : isSideRailEnabled) !== false,
    ),
  };
}

/** The beacon's body as the server reads it: every field required, nothing coerced. */
export function parseExperimentReport(json: unknown): Parsed<ExperimentReport | undefined> {
  const into = collector('invalid-field');
  const body = readObject(into, json, 'body');
  if (!body) return { value: undefined, diagnostics: into.diagnostics };
  const report = {
    experiment: readName(into, own(body, 'experiment'), 'experiment'),
    arm: readName(into, own(body, 'arm'), 'arm'),
    adsPlaced: readCount(into, own(body, 'adsPlaced'), 'adsPlaced'),
    viewable: readCount(into, own(body, 'viewable'), 'viewable'),
    layoutShift: readShift(into, own(body, 'layoutShift'), 'layoutShift'),
  };
  if (report.viewable !== undefined && report.adsPlaced !== undefined && report.viewable > report.adsPlaced)
    into.diagnostics.push(diagnostic(into.code, 'viewable: at most adsPlaced', report.viewable, 'viewable'));
  return { value: into.diagnostics.length ? undefined : (report as ExperimentReport), diagnostics: into.diagnostics };
}
