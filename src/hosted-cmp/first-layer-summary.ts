/**
 * The first layer's lists for a TCF instance, computed by the server from the GVL so that the
 * frame paints them without loading the GVL: the purposes, described by the IAB stacks where
 * they fit (a stack of purposes only, used when all its purposes are asked for and it covers at
 * least two not covered yet), then the purposes left over, one line each; and the special
 * features, one line each, under a heading of their own (the TCF policy's Appendix B). Pure.
 */
import { own } from '../wire/values.ts';
import type { GvlEntry, GvlJson } from '../wire/gvl.ts';
import type { TcfScope } from './tcf-scope.ts';

export type SummaryItem = { readonly name: string; readonly description?: string };
export type FirstLayerSummary = {
  readonly purposes: readonly SummaryItem[];
  readonly specialFeatures: readonly SummaryItem[];
};

const describe = (entry: GvlEntry | undefined): SummaryItem[] =>
  entry ? [{ name: entry.name, ...(entry.description ? { description: entry.description } : {}) }] : [];

export function summarize(gvl: GvlJson, scope: TcfScope): FirstLayerSummary {
  const purposes = new Set(scope.purposes.concat(scope.legIntPurposes));
  const items: SummaryItem[] = [];
  const size = (stack: { readonly purposes: readonly number[] }) =>
    stack.purposes.filter((id) => purposes.has(id)).length;
  // A stack naming a special feature would hide it among the purposes: such stacks are not used.
  const stacks = Object.values(gvl.stacks)
    .filter((stack) => stack.specialFeatures.length === 0)
    .sort((a, b) => size(b) - size(a) || a.id - b.id);
  for (const stack of stacks) {
    if (!stack.purposes.every((id) => purposes.has(id)) || size(stack) < 2) continue;
    items.push(...describe(stack));
    for (const id of stack.purposes) purposes.delete(id);
  }
  for (const id of [...purposes].sort((a, b) => a - b)) items.push(...describe(entryOf(gvl.purposes, id)));
  return {
    purposes: items,
    specialFeatures: scope.specialFeatures.flatMap((id) => describe(entryOf(gvl.specialFeatures, id))),
  };
}

const entryOf = (entries: Readonly<Record<string, GvlEntry>>, id: number) => own(entries, String(id));
