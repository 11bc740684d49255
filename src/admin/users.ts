/**
 * A user's records as a reader sees them: dates, not epoch milliseconds; choices, not JSON. The
 * current decision as a description list, its history as a table.
 */
import { $, element } from './dom.ts';

type Choices = Readonly<Record<string, boolean>>;
type Decision = {
  readonly state: string;
  readonly time: number;
  readonly pageUserId?: string | null;
  readonly purposeConsents?: Choices | null;
  readonly policyVersion: number;
  readonly consentString?: string | null;
};
type HistoryEntry = {
  readonly time: number;
  readonly state: string;
  readonly purposeConsents?: Choices | null;
  readonly origin?: string | null;
  readonly gpc?: boolean;
};
export type AdminUser = {
  readonly userId: string;
  readonly decision: Decision | null;
  readonly history: readonly HistoryEntry[];
  readonly moreHistory?: boolean;
};

const dateOf = (ms: number) =>
  Number.isFinite(ms)
    ? new Date(ms)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')
    : String(ms);
const choicesOf = (purposeConsents: Choices | null | undefined) =>
  Object.entries(purposeConsents ?? {})
    .map(([name, on]) => name + (on ? ' yes' : ' no'))
    .join(', ') || 'none';

function factsOf(decision: Decision | null): [string, string][] {
  if (!decision) return [['Decision', 'none stored (erased or never made)']];
  return [
    ['Decision', decision.state + ' on ' + dateOf(decision.time)],
    ['Page user id', decision.pageUserId || 'none'],
    ['Purposes', choicesOf(decision.purposeConsents)],
    ['Policy version', String(decision.policyVersion)],
    ['Consent string', decision.consentString || 'none'],
  ];
}

function historyOf(user: AdminUser): HTMLTableElement {
  const table = element('table', { className: 'history' });
  const head = table.createTHead().insertRow();
  for (const title of ['Time', 'Decision', 'Purposes', 'Origin', 'GPC'])
    head.append(element('th', { scope: 'col', textContent: title }));
  const body = table.createTBody();
  for (const entry of user.history) {
    const row = body.insertRow();
    const values = [
      dateOf(entry.time),
      entry.state,
      choicesOf(entry.purposeConsents),
      entry.origin ?? '',
      entry.gpc ? 'yes' : 'no',
    ];
    for (const value of values) row.insertCell().textContent = value;
  }
  const caption = table.createCaption();
  caption.textContent =
    'History, oldest first' +
    (user.moreHistory ? ' (the first ' + user.history.length + ' entries; export the user for all of them)' : '');
  return table;
}

export function showUsers(users: readonly AdminUser[]): void {
  $('user-result').replaceChildren(
    ...users.map((user) => {
      const list = element(
        'dl',
        { className: 'facts' },
        ...factsOf(user.decision).map(([term, value]) =>
          element('div', {}, element('dt', { textContent: term }), element('dd', { textContent: value })),
        ),
      );
      return element(
        'article',
        { className: 'user' },
        element('h3', { textContent: 'User ' + user.userId }),
        list,
        element('div', { className: 'scroll' }, historyOf(user)),
      );
    }),
  );
  $('user-result').hidden = false;
}
