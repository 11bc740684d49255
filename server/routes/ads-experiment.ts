/**
 * `POST /ads/experiment?client=...`: one page view of an auto-ads experiment, as `<page-auto-ads>`
 * beacons it (docs/server.md, "Ads experiments"): a JSON body (sent as `text/plain` by
 * `navigator.sendBeacon`, or `application/json`) of at most 1 KiB, read by the shared parser;
 * the experiment and arm must be one of the client's configs; its counts are added to the arm's
 * totals. Public CORS without credentials; declared among the rate-limited routes (rate-limit.ts).
 */
import type { FastifyInstance } from 'fastify';
import { type AdsConfigDocument, readAdsClient } from '../ads-config.ts';
import { publicCors } from '../cors.ts';
import { ErrorCode, HttpError } from '../errors.ts';
import { strictRead, strictValue } from '../strict.ts';
import { parseExperiment, parseExperimentReport } from '../../src/wire/auto-ads-experiment.ts';
import { isRecord, parseJsonText } from '../../src/wire/values.ts';
import { findAdsConfigDocument } from './ads-config.ts';
import type { AppContext } from './context.ts';

/** A page view's report is under 200 bytes; the cap leaves room and no more. */
export const experimentBodyLimit = 1024;

/** Whether one of the document's configs has an experiment `experiment` with an arm `arm`. */
export function hasExperimentArm(document: AdsConfigDocument, experiment: string, arm: string): boolean {
  const configs = [...document.rules.map((rule) => rule.config), document.default];
  return configs.some((config) => {
    const parsed = isRecord(config) ? parseExperiment(config).value : undefined;
    return parsed?.id === experiment && parsed.arms.some((candidate) => candidate.id === arm);
  });
}

export function registerExperimentRoutes(app: FastifyInstance, context: AppContext): void {
  app.register(async (scope) => {
    // The beacon's body is text/plain (no preflight); read as text here only.
    scope.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    const options = { onRequest: publicCors, bodyLimit: experimentBodyLimit };
    scope.options('/ads/experiment', options, (_request, reply) => reply.code(204).send());
    scope.post('/ads/experiment', options, async (request, reply) => {
      const client = strictRead(readAdsClient, (request.query as Record<string, unknown>)['client'], 'client');
      const text = request.body;
      const json = typeof text === 'string' ? parseJsonText(text) : text;
      if (json === undefined)
        throw new HttpError(400, ErrorCode.invalidJson, 'body: expected a JSON object, got text that is not JSON');
      const view = strictValue(parseExperimentReport(json));
      if (!hasExperimentArm(await findAdsConfigDocument(context, client), view.experiment, view.arm))
        throw new HttpError(
          404,
          ErrorCode.adsExperimentUnknown,
          `experiment: expected an experiment and arm of the ads config of "${client}", got ${view.experiment}/${view.arm}`,
        );
      await context.store.recordExperimentView(client, view);
      return reply.code(204).send();
    });
  });
}
