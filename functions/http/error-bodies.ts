/**
 * The bodies of error answers (functions/http/errors.ts; docs/api.md,
 * "Requests" and "Keys"), as schemas: the OpenAPI document publishes these,
 * and tests check every error answer against them.
 */
import type { SchemaType } from '../domain/schema-type';

const messages = { type: 'array', minItems: 1, items: { type: 'string' } } as const;

/** `{"message"}`: a 403, a 404, a 409, a 500, and the API Gateway answers (413, 429, 504). */
export const messageBodySchema = {
  type: 'object',
  required: ['message'],
  additionalProperties: false,
  properties: { message: { type: 'string' } },
} as const;

/** `{"message", "errors"?}`: what most operations answer when a request breaks a rule. */
export const invalidRequestBodySchema = {
  type: 'object',
  required: ['message'],
  additionalProperties: false,
  properties: {
    message: { type: 'string', description: 'What was invalid: `request body is invalid`, `query string is invalid`.' },
    errors: { ...messages, description: 'One message per problem, naming the record index and the field.' },
  },
} as const;

/** `{"errors"}`: register_affiliate's answer to every error but a 403 (docs/api.md, "register_affiliate"). */
export const errorListBodySchema = {
  type: 'object',
  required: ['errors'],
  additionalProperties: false,
  properties: { errors: { ...messages, description: 'One message per field that breaks a rule, naming the field.' } },
} as const;

export type MessageBody = SchemaType<typeof messageBodySchema>;
export type InvalidRequestBody = SchemaType<typeof invalidRequestBodySchema>;
export type ErrorListBody = SchemaType<typeof errorListBodySchema>;
