/**
 * Judges the prompt's accessibility checks (prompt-access.ts) of one journey (docs/validator.md,
 * "The prompt's accessibility"). Pure: each finding is `expected X, got Y`.
 *
 * - `audit-prompt-axe`: a WCAG 2 A/AA violation axe-core found in a layer of the prompt, with its
 *   rule, impact and selectors.
 * - `audit-prompt-unreachable`: controls of the prompt that Tab never focused.
 * - `audit-prompt-focus-escape`: Tab moved focus out of a prompt that says it is modal.
 * - `audit-prompt-focus-lost`: once the decision closed the prompt, focus stayed in it or on an
 *   element no longer shown.
 */
import type { AuditFinding, Phase, PromptAccess } from './report.ts';

const HINTS: Record<string, string> = {
  'audit-prompt-axe': 'Fix the markup axe-core names (its rule is explained at the helpUrl in the JSON report).',
  'audit-prompt-unreachable':
    'Make every control of the prompt a <button> or <a href> (or give it tabindex="0" and a key handler).',
  'audit-prompt-focus-escape':
    'Hold focus in a modal prompt: make the rest of the page inert while it shows (uiConfig.overlay does), or drop aria-modal.',
  'audit-prompt-focus-lost': 'When the prompt closes, move focus back to where it was before the prompt took it.',
};

/** The checks run on the shown prompt just before the decision (t 0); the focus check just after it. */
export function judgePrompt(access: PromptAccess | null): AuditFinding[] {
  if (!access) return [];
  const finding = (
    code: string,
    what: string,
    message: string,
    frame: string,
    phase: Phase = 'before',
  ): AuditFinding => ({
    code,
    subject: 'prompt',
    phase,
    t: 0,
    what,
    message,
    initiator: { chain: [], tag: frame === 'page' ? { kind: 'element', url: null } : { kind: 'frame', url: frame } },
    hint: HINTS[code] ?? '',
  });
  const findings = access.layers.flatMap((layer) =>
    layer.violations.map((violation) =>
      finding(
        'audit-prompt-axe',
        `${violation.rule} ${violation.selectors[0] ?? ''}`.trim(),
        `expected no WCAG 2 A/AA violation in the prompt's ${layer.layer} layer${layer.openedBy ? ` (opened by "${layer.openedBy}")` : ''}, got ${violation.rule} (${violation.impact ?? 'no impact given'}): ${violation.help} at ${violation.selectors.join(', ') || 'an unnamed node'}`,
        layer.frame,
      ),
    ),
  );
  const walk = access.keyboard;
  const frame = access.layers[0]?.frame ?? 'page';
  if (walk?.unreached.length)
    findings.push(
      finding(
        'audit-prompt-unreachable',
        walk.unreached.join(', '),
        `expected every control of the prompt reachable by Tab, got ${walk.unreached.length} of ${walk.controls.length} never focused: ${walk.unreached.join(', ')}`,
        frame,
      ),
    );
  if (walk?.isModal && walk.escapedTo.length)
    findings.push(
      finding(
        'audit-prompt-focus-escape',
        walk.escapedTo.join(', '),
        `expected focus held in the modal prompt, got Tab to ${walk.escapedTo.join(', ')} outside it`,
        frame,
      ),
    );
  if (walk?.isFocusLost)
    findings.push(
      finding(
        'audit-prompt-focus-lost',
        walk.focusAfterClose ?? '',
        `expected focus back on the page once the prompt closed, got ${walk.focusAfterClose ?? 'nothing'} left in the closed prompt or hidden`,
        frame,
        'after',
      ),
    );
  return findings;
}
