/**
 * The admin dashboard's script (`server/pages/admin.html`, served by the reference server as
 * `/admin/admin-0.1.js`): connects with the admin token (typed in, or taken once from the URL's
 * `#token=` that `npm start` prints in development), then shows an instance's counts and charts,
 * its user records, receipts, config, TCF and US privacy (GPP) settings, and an ads client's experiments, through the admin API.
 */
import type { InstanceConfig } from '../wire/instance-config.ts';
import { currentToken, download, guarded, instancePath, json, say, setToken, showError } from './api.ts';
import { purposeChart, rateChart, showCounts, type Stats } from './charts.ts';
import { $, inputOf, selectOf, textareaOf } from './dom.ts';
import { type ExperimentSummary, experimentTable } from './experiments.ts';
import { buildGppForm, gppPatch, showGpp } from './gpp-settings.ts';
import { groupTable } from './group-table.ts';
import { verifyReceipt } from './receipt.ts';
import { bindAtps, loadAtpList } from './tcf-atps.ts';
import { showTcfLanguages } from './tcf-languages.ts';
import {
  hasGvl,
  loadGvl,
  renderMapping,
  selectShown,
  showTcf,
  tcfPatch,
  turnPage,
  whenSelectionChanges,
} from './tcf-picker.ts';
import { bindPublisher, publisherSettings, readPublisherSettings, renderRestrictions } from './tcf-publisher.ts';
import { tcfWith } from './tcf-publisher-settings.ts';
import { type AdminUser, showUsers } from './users.ts';

type Instance = { readonly id: string; readonly policyVersion: number; readonly config: InstanceConfig };
const SECTIONS = [
  'instances-section',
  'charts-section',
  'users-section',
  'receipt-section',
  'experiments-section',
  'config-section',
  'vendors-section',
];

async function loadInstance(): Promise<void> {
  if (!selectOf('instance').value) return;
  const [instance, stats] = await Promise.all([
    json<Instance>(instancePath()),
    json<Stats>(instancePath() + '/stats?days=' + encodeURIComponent(inputOf('days').value)),
  ]);
  showCounts(instance.policyVersion, stats);
  rateChart($('decisions-chart'), 'Decisions logged per day (share)', stats.decisionsPerDay, [
    'accepted',
    'rejected',
    'unknown',
  ]);
  rateChart($('outcomes-chart'), 'Hosted prompt outcomes per day (share)', stats.promptOutcomesPerDay, [
    'accept',
    'reject',
    'dismiss',
  ]);
  purposeChart($('purposes-chart'), stats.purposes);
  $('groups-table').replaceChildren(groupTable(stats.decisionsPerGroup));
  inputOf('config-id').value = instance.id;
  textareaOf('config').value = JSON.stringify(instance.config, null, 2);
  showTcf(instance.config);
  showGpp(instance.config);
  readPublisherSettings();
}

/** Every instance, page by page (the list answers at most `limit` with a `nextCursor`). */
async function listInstances(): Promise<Instance[]> {
  const instances: Instance[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : '&cursor=' + encodeURIComponent(cursor);
    const page = await json<{ instances: Instance[]; nextCursor: string | null }>(
      '/admin/api/instances?limit=1000' + query,
    );
    instances.push(...page.instances);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return instances;
}

async function connect(): Promise<void> {
  const instances = await listInstances();
  const current = selectOf('instance').value;
  selectOf('instance').replaceChildren(...instances.map((instance) => new Option(instance.id, instance.id)));
  if (current) selectOf('instance').value = current;
  if (!hasGvl()) {
    await loadGvl();
    // Without a vendor list no TCF setting can be saved: the ATP list is not asked for either.
    if (hasGvl()) await Promise.all([showTcfLanguages(), loadAtpList()]);
  }
  for (const id of SECTIONS) $(id).hidden = false;
  say(
    instances.length
      ? 'Connected.'
      : 'Connected. No instance yet: one is created on the first consent check, or save a config below.',
  );
  await loadInstance();
}

const userQuery = () => '?' + selectOf('user-kind').value + '=' + encodeURIComponent(inputOf('user-id').value);

function bindInstance(): void {
  $('token-form').addEventListener(
    'submit',
    guarded(async () => {
      setToken(inputOf('token').value);
      sessionStorage.setItem('page-admin-token', currentToken());
      await connect();
    }),
  );
  $('instance').addEventListener('change', guarded(loadInstance));
  $('refresh').addEventListener('click', guarded(loadInstance));
  $('export-csv').addEventListener(
    'click',
    guarded(() => download('csv')),
  );
  $('export-ndjson').addEventListener(
    'click',
    guarded(() => download('ndjson')),
  );
  $('bump').addEventListener(
    'click',
    guarded(async () => {
      if (!confirm('Bump the policy version? Every user will be asked again.')) return;
      const instance = await json<Instance>(instancePath() + '/policy-version', { method: 'POST' });
      say('Policy version is now ' + instance.policyVersion + '.');
      await loadInstance();
    }),
  );
}

function bindUsers(): void {
  $('user-form').addEventListener(
    'submit',
    guarded(async () => {
      const result = await json<{ users: AdminUser[] }>(instancePath() + '/users' + userQuery());
      showUsers(result.users);
      say('Found ' + result.users.length + ' user(s).');
    }),
  );
  $('erase').addEventListener(
    'click',
    guarded(async () => {
      if (!inputOf('user-id').value || !confirm('Erase every record of this user in this instance?')) return;
      type Erased = { erased: { decisions: number; auditEntries: number } };
      const { erased } = await json<Erased>(instancePath() + '/users' + userQuery(), { method: 'DELETE' });
      $('user-result').hidden = true;
      say('Erased ' + erased.decisions + ' decision(s) and ' + erased.auditEntries + ' log entries.');
      await loadInstance();
    }),
  );
  $('receipt-form').addEventListener(
    'submit',
    guarded(async () => {
      const { jws } = await json<{ jws: string }>(
        '/consent/receipt/' + encodeURIComponent(inputOf('receipt-id').value),
      );
      const { isValid, kid, receipt } = await verifyReceipt(jws);
      $('receipt-status').textContent = isValid
        ? 'Signature verified with key ' + kid + '.'
        : 'Signature NOT valid (key ' + kid + ').';
      $('receipt-status').className = isValid ? 'verified' : 'error';
      $('receipt-result').textContent = isValid ? JSON.stringify(receipt, null, 2) : '';
      $('receipt-result').hidden = !isValid;
    }),
  );
}

function bindExperiments(): void {
  $('experiments-form').addEventListener(
    'submit',
    guarded(async () => {
      const client = inputOf('experiments-client').value;
      type Answer = { experiments: ExperimentSummary[] };
      const { experiments } = await json<Answer>('/admin/api/ads-experiments/' + encodeURIComponent(client));
      $('experiments-result').replaceChildren(
        ...(experiments.length ? experiments.map(experimentTable) : ['No experiment page views for ' + client + '.']),
      );
      say('Showed ' + experiments.length + ' experiment(s) of ' + client + '.');
    }),
  );
}

function bindConfig(): void {
  $('config-form').addEventListener(
    'submit',
    guarded(async () => {
      const id = inputOf('config-id').value;
      const body = JSON.stringify(JSON.parse(textareaOf('config').value || '{}'));
      $('tcf-error').hidden = true;
      try {
        await json('/admin/api/instances/' + encodeURIComponent(id), { method: 'PUT', body });
      } catch (error) {
        // A refused TCF field is shown beside the TCF fields too.
        if ((error as Error).message.startsWith('tcf')) showError('tcf-error', (error as Error).message);
        throw error;
      }
      say('Saved the config of ' + id + '.');
      await connect();
      selectOf('instance').value = id;
      await loadInstance();
    }, 'config-error'),
  );
  buildGppForm();
  $('gpp-save').addEventListener(
    'click',
    guarded(async () => {
      const patch = gppPatch();
      await json(instancePath(), { method: 'PATCH', body: JSON.stringify(patch) });
      say(
        patch.gpp
          ? 'Saved the US privacy (GPP) settings of ' + selectOf('instance').value + '.'
          : 'Removed the US privacy (GPP) settings of ' + selectOf('instance').value + '.',
      );
      await loadInstance();
    }),
  );
  $('vendor-search').addEventListener('input', () => turnPage(null));
  $('vendor-selected-only').addEventListener('change', () => turnPage(null));
  $('vendor-previous').addEventListener('click', () => turnPage(-1));
  $('vendor-next').addEventListener('click', () => turnPage(1));
  $('vendor-select-all').addEventListener('click', () => selectShown(true));
  $('vendor-clear').addEventListener('click', () => selectShown(false));
  $('page-purposes').addEventListener('input', () => {
    if (hasGvl()) renderMapping();
  });
  $('tcf-save').addEventListener(
    'click',
    guarded(async () => {
      const id = selectOf('instance').value;
      const patch = tcfPatch();
      const tcf = patch.tcf && tcfWith(patch.tcf, publisherSettings());
      await json(instancePath(), { method: 'PATCH', body: JSON.stringify({ ...patch, tcf }) });
      say(
        patch.tcf
          ? 'Saved the TCF settings of ' +
              id +
              ': ' +
              patch.tcf.vendors.length +
              ' vendors, purposes asked: ' +
              (patch.purposeConsentRequired ?? []).join(', ') +
              '.'
          : 'Removed the TCF settings of ' + id + ' (no vendor selected).',
      );
      await loadInstance();
    }, 'tcf-error'),
  );
  whenSelectionChanges(renderRestrictions);
  bindPublisher();
  bindAtps();
}

// A token in the fragment (the URL npm start prints in development) is taken once, then removed from the address bar.
const fragmentToken = /^#token=([A-Za-z0-9_-]+)$/.exec(location.hash);
if (fragmentToken) {
  sessionStorage.setItem('page-admin-token', fragmentToken[1]!);
  history.replaceState(null, '', location.pathname + location.search);
}
setToken(inputOf('token').disabled ? '' : sessionStorage.getItem('page-admin-token') || '');
bindInstance();
bindUsers();
bindExperiments();
bindConfig();
if (currentToken()) {
  inputOf('token').value = currentToken();
  guarded(connect)();
}
