/**
 * The JSON body parser: Fastify's own (secure-json-parse, which refuses a `__proto__` key and a
 * `constructor` key holding `prototype` anywhere in a body, `onProtoPoisoning: 'error'`), whose
 * refusal of such a body otherwise reads "not valid JSON". Bodies stay refused: not every path
 * reads them by own-property lookups only (the admin PATCH spreads a body into the stored
 * config), see docs/decisions/server-json-bodies.md; the 400 now names the problem.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { ErrorCode, HttpError } from './errors.ts';

export const poisonedJsonMessage =
  'body: expected JSON without a "__proto__" key or a "constructor" key holding "prototype", got one';

const isJsonText = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string; // parseAs: 'string'
    parse(request, text, (error, value) => {
      // Only a refusal of text that is JSON is re-read (rare): the usual path costs nothing more.
      if (error && isJsonText(text)) {
        return done(
          new HttpError(400, ErrorCode.invalidJson, poisonedJsonMessage) as unknown as FastifyError,
          undefined,
        );
      }
      done(error, value);
    });
  });
}
