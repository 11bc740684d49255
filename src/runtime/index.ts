/**
 * The runtime's public surface for features (consent, auto ads, geo). Features import only
 * from here, and only types: at run time they use the `PageRuntime` object that
 * `(self.PAGE = self.PAGE || []).push(page => ...)` hands them, so runtime code ships once.
 */
export type * from './types.ts';
export type { DiagnosticLevel } from './diagnostics.ts';
export type { Diagnostic, Parsed } from '../wire/diagnostic.ts';
export type { PageElement } from './element.ts';
