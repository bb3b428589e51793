/**
 * The EventBridge event SES publishes for a mail (source `aws.ses`): the part
 * of its `detail` urm reads, bounded. Only AWS puts `aws.*` events on a bus,
 * but a format SES changes must be refused, not guessed at.
 */
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
const time = { type: 'string', format: 'date-time', maxLength: 64 } as const;
/** SES tags: up to 50 per mail, names and values up to 256 characters (its own `ses:` tags hold addresses, longer). */
const tags = { type: 'object', maxProperties: 64, additionalProperties: { type: 'array', maxItems: 50, items: text(1024) } } as const;
const addresses = { type: 'array', maxItems: 100, items: { type: 'object', required: ['emailAddress'], properties: { emailAddress: text(1024) } } } as const;

export const sesEventSchema = {
  type: 'object',
  required: ['source', 'detail-type', 'detail'],
  properties: {
    source: text(64),
    'detail-type': text(64),
    detail: {
      type: 'object',
      required: ['eventType', 'mail'],
      properties: {
        eventType: text(64),
        mail: {
          type: 'object',
          required: ['messageId', 'timestamp'],
          properties: { messageId: { type: 'string', minLength: 1, maxLength: 256 }, timestamp: time, tags },
        },
        bounce: {
          type: 'object',
          required: ['bounceType'],
          properties: { bounceType: text(64), bounceSubType: text(64), bouncedRecipients: addresses, timestamp: time },
        },
        complaint: { type: 'object', properties: { complainedRecipients: addresses, complaintFeedbackType: text(64), timestamp: time } },
        delivery: { type: 'object', properties: { recipients: { type: 'array', maxItems: 100, items: text(1024) }, timestamp: time } },
        open: { type: 'object', properties: { timestamp: time } },
        // SES's link may be long (a campaign's query string); only its origin and path are kept.
        click: { type: 'object', properties: { timestamp: time, link: text(8192) } },
      },
    },
  },
} as const;

export type SesEvent = FromRequestSchema<typeof sesEventSchema>;

export const checkSesEvent = compileValidator(sesEventSchema, 'event');
