/** The shape of what lib/api-docs says of an operation beside the manifest (functions/manifest/operations.ts): see operation-docs.ts. */
import type { Scope } from '../../../functions/domain/api-keys';
import type { Validator } from '../../../functions/domain/validation';

export const tags = [
  { name: 'Ingestion', description: 'Profile records and events, written to the stream and applied within seconds.' },
  { name: 'Profiles', description: "Reading a profile's state and timeline back." },
  { name: 'Affiliates', description: 'Attributing players to affiliates, registering affiliates, listing them and their reports.' },
  { name: 'Enterprise', description: "Enterprise users and their sign-in to the application's portal." },
  { name: 'Email', description: "Transactional email through the application's channels." },
  { name: 'Web push', description: 'Web push notifications and what the browser SDK needs.' },
  { name: 'Segments', description: "The application's segments, their sizes and members, kept in real time." },
  { name: 'Journeys', description: 'Lifecycle journeys: entering a player into one from your server.' },
] as const;

export type Tag = (typeof tags)[number]['name'];

export interface RequestExample {
  summary: string;
  path?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  body?: unknown;
  /** What comes back: a JSON value, or the page. */
  answer?: unknown;
}

export interface ParameterDoc {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description: string;
  schema: object;
}

export interface ResponseDoc {
  description: string;
  /** The JSON body's schema; absent with `html` (a page) or for an empty body. */
  schema?: object;
  html?: true;
  headers?: Record<string, { description: string; schema: object }>;
  /** Examples of the answer that no request example leads to. */
  illustrations?: Record<string, { summary: string; value: unknown }>;
}

export interface OperationDoc {
  tag: Tag;
  summary: string;
  description: string;
  /** The scopes of API key the handler allows (its jsonApi/queryApi `scopes`); empty: no key. */
  scopes: readonly Scope[];
  /** A portal page (htmlApi, functions/http/html.ts): HTML answers, an error page. */
  page?: true;
  parameters?: ParameterDoc[];
  /** The function's query-string validator: each property of its schema becomes a query parameter. */
  query?: { validate: Validator<unknown>; descriptions: Record<string, string> };
  /** The function's body validator; `also`: a rule it checks beside its schema, in JSON Schema. */
  body?: { validate: Validator<unknown>; description: string; also?: object };
  /** `errors`: error bodies are `{"errors"}` (register_affiliate). */
  errorStyle?: 'message' | 'errors';
  /** The operation's own answers; the shared ones (400, 403, 500, gateway answers) are added. */
  responses: Record<number, ResponseDoc>;
  examples: Record<string, RequestExample>;
}
