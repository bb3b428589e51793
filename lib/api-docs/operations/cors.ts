/** CORS in the document: what a browser key's call carries and gets, and the preflight of each such operation. */
import { corsAllowedHeaders, corsMaxAgeSeconds } from '../../../functions/http/cors';
import { messageBodySchema } from '../../../functions/http/error-bodies';
import { placeholders as p } from '../placeholders';
import type { OperationDoc, ParameterDoc } from './doc-types';

/** What a browser key's POST names its application with, for CORS (functions/http/cors.ts). */
export const corsAppIdParameter: ParameterDoc = {
  name: 'app_id',
  in: 'query',
  required: false,
  description: 'Names the application for CORS; the browser SDK sends it.',
  schema: { type: 'string' },
};

/** Where the CORS headers are documented: the answers of an operation a browser key may call. */
export const corsHeaders = {
  'Access-Control-Allow-Origin': {
    description: "The request's Origin, when it is one of the application's site origins and the key is a browser key (or was refused).",
    schema: { type: 'string' },
  },
  Vary: { description: 'Origin', schema: { type: 'string' } },
};

/** The preflight of an operation a browser key may call (functions/http/cors.ts). */
export function preflightDoc(method: string): OperationDoc {
  const preflight = (origin: string) => ({
    query: { app_id: p.appId },
    headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'content-type, x-api-key' },
  });
  return {
    tag: 'Web push',
    summary: 'CORS preflight',
    description:
      "Answered for the application's site origins only; the application is named by `app_id` in the query string, as a " + 'preflight carries no key.',
    scopes: [],
    parameters: [
      { name: 'app_id', in: 'query', required: true, description: 'The application whose site origins apply.', schema: { type: 'string' } },
      { name: 'Origin', in: 'header', required: true, description: 'The page asking.', schema: { type: 'string' } },
      { name: 'Access-Control-Request-Method', in: 'header', required: false, description: 'The method to come.', schema: { type: 'string' } },
      { name: 'Access-Control-Request-Headers', in: 'header', required: false, description: 'The headers to come.', schema: { type: 'string' } },
    ],
    responses: {
      204: {
        description: 'The origin may call.',
        headers: {
          'Access-Control-Allow-Origin': { description: 'The origin.', schema: { type: 'string' } },
          'Access-Control-Allow-Methods': { description: "The operation's method.", schema: { const: method } },
          'Access-Control-Allow-Headers': { description: 'What the SDK sends.', schema: { const: corsAllowedHeaders } },
          'Access-Control-Max-Age': { description: 'Seconds the browser may keep the answer.', schema: { const: String(corsMaxAgeSeconds) } },
          Vary: { description: 'Origin', schema: { const: 'Origin' } },
        },
      },
      403: { description: 'Not a site origin of the application: no CORS headers.', schema: messageBodySchema },
    },
    examples: {
      '204 site origin': { summary: "An origin of the application's site", ...preflight(p.siteOrigin) },
      '403 other origin': { summary: 'Any other origin', ...preflight('https://evil.example'), answer: { message: 'Forbidden' } },
    },
  };
}
