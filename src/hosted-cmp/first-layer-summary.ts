/**
 * The first layer's list for a TCF instance, computed by the server from the GVL so that the
 * frame paints it without loading the GVL: the IAB stacks that describe the selection (a stack
 * is used when all its purposes and special features are asked for and it covers at least two
 * not covered yet), then the purposes and special features left over, one line each. Pure.
 */
import { own } from '../wire/values.ts';
import type { GvlEntry, GvlJson } from '../wire/gvl.ts';
import type { TcfScope } from './tcf-scope.ts';

export type SummaryItem = { readonly name: string; readonly description?: string };

const describe = (entry: GvlEntry | undefined): SummaryItem[] =>
  entry ? [{ name: entry.name, ...(entry.description ? { description: entry.description } : {}) }] : [];

export function summarize(gvl: GvlJson, scope: TcfScope): SummaryItem[] {
  const purposes = new Set(scope.purposes.concat(scope.legIntPurposes));
  const features = new Set(scope.specialFeatures);
  const items: SummaryItem[] = [];
  const stacks = Object.values(gvl.stacks).sort((a, b) => size(b) - size(a) || a.id - b.id);
  for (const stack of stacks) {
    const stackPurposes = stack.purposes;
    const stackFeatures = stack.specialFeatures;
    const isAsked = stackPurposes.every((id) => purposes.has(id)) && stackFeatures.every((id) => features.has(id));
    if (!isAsked || size(stack) < 2) continue;
    items.push(...describe(stack));
    for (const id of stackPurposes) purposes.delete(id);
    for (const id of stackFeatures) features.delete(id);
  }
  for (const id of [...purposes].sort((a, b) => a - b)) items.push(...describe(entryOf(gvl.purposes, id)));
  for (const id of features) items.push(...describe(entryOf(gvl.specialFeatures, id)));
  return items;

  function size(stack: { readonly purposes: readonly number[]; readonly specialFeatures: readonly number[] }): number {
    return (
      stack.purposes.filter((id) => purposes.has(id)).length +
      stack.specialFeatures.filter((id) => features.has(id)).length
    );
  }
}

const entryOf = (entries: Readonly<Record<string, GvlEntry>>, id: number) => own(entries, String(id));
