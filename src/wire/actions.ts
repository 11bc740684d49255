/**
 * Parses the `on` attribute: `event:target.action(name=value, ...), target2.action2; event2:...`.
 * Pure: malformed parts become `invalid-action` diagnostics, the valid parts are kept. Shared by
 * the runtime's actions and the validator.
 */
import { type Diagnostic, diagnostic, type Parsed } from './diagnostic.ts';

/** A literal argument value: `true`/`false`, a number, or text (quoted or not). */
export type ActionValue = string | number | boolean;

/** An argument read from the triggering event when the action runs (`event.checked` -> ['checked']). */
export type EventReference = { readonly path: readonly string[] };
export type ActionArgument = ActionValue | EventReference;
export type ActionCall = {
  readonly target: string;
  readonly action: string;
  readonly args: Readonly<Record<string, ActionArgument>>;
};

const EVENT = /^[\w-]+$/;
const CALL = /^([\w-]+)\.(\w+)\s*(?:\((.*)\))?$/s;
const ARGUMENT = /^([\p{L}\p{N}_-]+)\s*=\s*(.*)$/su;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)$/;
const QUOTED = /^(["'])(.*)\1$/s;
const REFERENCE = /^event\.([\w.]+)$/;

export function parseActions(text: string): Parsed<ReadonlyMap<string, readonly ActionCall[]>> {
  const value = new Map<string, ActionCall[]>();
  const diagnostics: Diagnostic[] = [];
  const invalid = (got: string) =>
    diagnostics.push(diagnostic('invalid-action', '"event:target.action(name=value)"', got));
  const clauses = splitTopLevel(text, ';');
  if (!clauses) invalid(text.trim());
  for (const clause of clauses ?? []) {
    if (!clause) continue;
    const colon = clause.indexOf(':');
    const event = clause.slice(0, colon).trim();
    const calls = colon > 0 && EVENT.test(event) ? splitTopLevel(clause.slice(colon + 1), ',')!.filter(Boolean) : [];
    if (!calls.length) invalid(clause);
    for (const callText of calls) {
      const call = parseCall(callText);
      if (call) value.set(event, [...(value.get(event) ?? []), call]);
      else invalid(`${event}:${callText}`);
    }
  }
  return { value, diagnostics };
}

/** `target.action(name=value, ...)`, or null when any part is malformed. */
function parseCall(text: string): ActionCall | null {
  const match = CALL.exec(text);
  const pieces = match?.[3] === undefined ? [] : splitTopLevel(match[3], ',');
  if (!match || !pieces) return null;
  // Own keys only: an argument named `__proto__` must not become the prototype of `args`.
  const args: [string, ActionArgument][] = [];
  for (const piece of pieces) {
    const argument = ARGUMENT.exec(piece);
    if (argument) args.push([argument[1]!, parseValue(argument[2]!.trim())]);
    else if (piece) return null;
  }
  return { target: match[1]!, action: match[2]!, args: Object.fromEntries(args) };
}

function parseValue(text: string): ActionArgument {
  if (text === 'true' || text === 'false') return text === 'true';
  if (NUMBER.test(text)) return Number(text);
  const reference = REFERENCE.exec(text);
  if (reference) return { path: reference[1]!.split('.') };
  return QUOTED.exec(text)?.[2] ?? text;
}

/** Trimmed pieces between `separator`s outside quotes and parentheses; null when unbalanced. */
function splitTopLevel(text: string, separator: string): string[] | null {
  const pieces: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let index = 0; index < text.length && depth >= 0; index++) {
    const char = text[index];
    if (quote) quote = char === quote ? '' : quote;
    else if (char === '"' || char === "'") quote = char;
    else if (char === '(' || char === ')') depth += char === '(' ? 1 : -1;
    else if (char === separator && !depth) {
      pieces.push(text.slice(start, index).trim());
      start = index + 1;
    }
  }
  pieces.push(text.slice(start).trim());
  return depth || quote ? null : pieces;
}
