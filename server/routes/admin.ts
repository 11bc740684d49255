/**
 * Admin JSON API under `/admin/api/` (bearer ADMIN_TOKEN): instances and policies, users'
 * decisions and history, erasure, statistics, ads configs. Exports live in admin-export.ts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { adminGuard } from '../admin-auth.ts';
import { namedGroups } from '../decision-kinds.ts';
import { summarizeExperiments } from '../experiment-stats.ts';
import { parseAdsConfigDocument, readAdsClient } from '../ads-config.ts';
import { ErrorCode, HttpError, invalidField } from '../errors.ts';
import { isRecord, readNumber } from '../../src/wire/values.ts';
import { strictOptional, strictRead } from '../strict.ts';
import { parseInstanceConfig } from '../instance-config.ts';
import { checkTcfAgainstGvl } from '../instance-tcf.ts';
import { tcfFilesOf } from '../tcf-files.ts';
import { languageStatuses } from '../prompt-languages.ts';
import { probePage, readListQuery, takePage } from '../pagination.ts';
import type { ConsentStore, InstanceConfig, InstanceRecord } from '../store/store.ts';
import { utcDay } from '../store/store.ts';
import { registerExportRoutes } from './admin-export.ts';
import { allUsersOf, existingInstance, instanceIdOf, pageOfUsers, userSelectorOf } from './admin-params.ts';
import { requireJsonBody } from './consent.ts';
import type { AppContext } from './context.ts';

export const adminBodyLimit = 1024 * 1024;
const dayMs = 86_400_000;

/** The config, once its `tcf` settings (if any) name only ids of the server's GVL. */
async function checkedConfig(context: AppContext, config: InstanceConfig): Promise<InstanceConfig> {
  if (!config.tcf) return config;
  const gvl = await tcfFilesOf(context).vendorList();
  if (!gvl) throw invalidField('tcf', 'a server with a vendor list (set TCF_VENDOR_LIST)', 'tcf settings');
  checkTcfAgainstGvl(config.tcf, gvl);
  return config;
}

function registerInstanceRoutes(app: FastifyInstance, context: AppContext): void {
  const { store } = context;
  const withCounts = async (instance: InstanceRecord) => ({
    ...instance,
    counts: await store.countInstance(instance.id),
  });

  app.get('/admin/api/instances', async (request) => {
    const list = readListQuery(request.query as Record<string, unknown>);
    const page = takePage(await store.listInstances(probePage(list.cursor, list.limit)), list.limit, (i) => i.id);
    return { instances: await Promise.all(page.items.map(withCounts)), nextCursor: page.nextCursor };
  });
  app.get('/admin/api/instances/:id', async (request) =>
    withCounts(await existingInstance(store, instanceIdOf(request))),
  );
  app.put('/admin/api/instances/:id', async (request) => {
    const id = instanceIdOf(request);
    const config = await checkedConfig(context, parseInstanceConfig(requireJsonBody(request)));
    return store.putInstance(id, config, context.now());
  });
  app.patch('/admin/api/instances/:id', async (request) => {
    const id = instanceIdOf(request);
    const patch = requireJsonBody(request);
    if (!isRecord(patch)) throw invalidField('body', 'a JSON object', patch);
    const current = await existingInstance(store, id);
    const config = await checkedConfig(context, parseInstanceConfig({ ...current.config, ...patch }));
    return store.putInstance(id, config, context.now());
  });
  app.post('/admin/api/instances/:id/policy-version', async (request) => {
    const id = instanceIdOf(request);
    const bumped = await store.bumpPolicyVersion(id, context.now());
    if (!bumped) throw new HttpError(404, ErrorCode.instanceNotFound, `id: no instance "${id}"`);
    request.log.info({ instanceId: id, policyVersion: bumped.policyVersion }, 'policy version bumped');
    return bumped;
  });
}

/** A user's decision and the first `limit` entries of their history (`moreHistory` when it goes on). */
async function readUser(store: ConsentStore, instanceId: string, userId: string, limit: number) {
  const history = await store.getHistory(instanceId, userId, probePage(0, limit));
  return {
    userId,
    decision: await store.getDecision(instanceId, userId),
    history: history.slice(0, limit),
    moreHistory: history.length > limit,
  };
}

function registerUserRoutes(app: FastifyInstance, context: AppContext): void {
  const { store } = context;
  app.get('/admin/api/instances/:id/users', async (request) => {
    const instanceId = instanceIdOf(request);
    const list = readListQuery(request.query as Record<string, unknown>);
    const page = await pageOfUsers(store, instanceId, userSelectorOf(request), list);
    const users = await Promise.all(page.items.map((userId) => readUser(store, instanceId, userId, list.limit)));
    const found = users.filter((user) => user.decision || user.history.length > 0);
    if (found.length === 0 && list.cursor === '')
      throw new HttpError(404, ErrorCode.userNotFound, 'no records for this user');
    return { users: found, nextCursor: page.nextCursor };
  });
  app.delete('/admin/api/instances/:id/users', async (request) => {
    const instanceId = instanceIdOf(request);
    const selector = userSelectorOf(request);
    const erased = { decisions: 0, auditEntries: 0 };
    for await (const userId of allUsersOf(store, instanceId, selector)) {
      const counts = await store.eraseUser(instanceId, userId);
      erased.decisions += counts.decisions;
      erased.auditEntries += counts.auditEntries;
    }
    request.log.info({ instanceId, ...erased }, 'user records erased');
    return { erased };
  });
  app.get('/admin/api/instances/:id/stats', async (request) => {
    const instanceId = instanceIdOf(request);
    const query = request.query as Record<string, unknown>;
    const days =
      strictOptional(readNumber(1, 366), query['days'] === undefined ? undefined : Number(query['days']), 'days') ?? 30;
    const since = Math.floor(context.now() / dayMs) * dayMs - (days - 1) * dayMs;
    return {
      instanceId,
      days,
      counts: await store.countInstance(instanceId),
      decisionsPerDay: await store.dailyDecisions(instanceId, since),
      decisionsPerGroup: namedGroups(await store.groupDecisions(instanceId, since)),
      promptOutcomesPerDay: await store.promptOutcomes(instanceId, utcDay(since)),
      purposes: await store.purposeAcceptance(instanceId),
    };
  });
}

function registerAdsConfigAdminRoutes(app: FastifyInstance, context: AppContext): void {
  const clientOf = (request: FastifyRequest) =>
    strictRead(readAdsClient, (request.params as { client: string }).client, 'client');
  app.get('/admin/api/ads-config/:client', async (request) => {
    const client = clientOf(request);
    const fromFile = context.adsConfigs.get(client);
    const stored = fromFile ? null : await context.store.getAdsConfig(client);
    if (!fromFile && stored === null)
      throw new HttpError(404, ErrorCode.adsClientNotFound, `client: no ads config for "${client}"`);
    return { client, source: fromFile ? 'file' : 'store', document: fromFile ?? stored };
  });
  app.put('/admin/api/ads-config/:client', async (request) => {
    const client = clientOf(request);
    if (context.adsConfigs.has(client)) {
      throw new HttpError(
        409,
        ErrorCode.adsConfigFromFile,
        `client: "${client}" is defined by a file in ADS_CONFIG_DIR`,
      );
    }
    const document = parseAdsConfigDocument(requireJsonBody(request));
    await context.store.putAdsConfig(client, document, context.now());
    return { client, source: 'store', document };
  });
  app.get('/admin/api/ads-experiments/:client', async (request) => {
    const client = clientOf(request);
    return { client, experiments: summarizeExperiments(await context.store.experimentArms(client)) };
  });
}

export function registerAdminRoutes(app: FastifyInstance, context: AppContext): void {
  app.register(async (admin) => {
    admin.addHook('onRoute', (route) => {
      route.bodyLimit = adminBodyLimit;
    });
    admin.addHook('onRequest', adminGuard(context.adminToken));
    registerInstanceRoutes(admin, context);
    registerUserRoutes(admin, context);
    registerExportRoutes(admin, context);
    registerAdsConfigAdminRoutes(admin, context);
    // Which languages the hosted TCF prompt speaks (own texts and IAB translation); null without a GVL.
    admin.get('/admin/api/tcf/languages', async () => ({ languages: await languageStatuses(tcfFilesOf(context)) }));
  });
}
