/** Sending a stored template to one player. */
import { sendTemplateLimits, sendTemplateResponseSchema } from '../../../functions/api/send-template/schema';
import { messageBodySchema, invalidRequestBodySchema } from '../../../functions/http/error-bodies';
import { placeholders as p } from '../placeholders';
import { notFound, refusal, v } from './common';
import type { OperationDoc } from './doc-types';

const noPurpose = { app_id: p.appId, profile_id: p.profileId, template_id: p.templateId, data: { bonus: '25.50' } };

export const templateDocs: Record<string, OperationDoc> = {
  SendTemplate: {
    tag: 'Templates',
    summary: 'Send a template to a player',
    description:
      "Renders one of the application's templates (email, web push or webhook) for the player, with `data` as the template's `event`, " +
      'and sends it through the send gate: `marketing` under every rule, `transactional` under suppression and an address only ' +
      '(a webhook: the player must exist; marketing also needs no RG status, some marketing consent and the topic kept). ' +
      'The message id is derived from `idempotency_key`, else from the request and its UTC day: the same call sent again sends nothing more (409). ' +
      `\`data\` holds at most ${sendTemplateLimits.dataProperties} properties, each an event property value.`,
    scopes: ['comms'],
    body: { validate: v.sendTemplate, description: 'The template, the player, the purpose and the data.' },
    responses: {
      200: { description: 'Sent (the id on the sent event); or held back by the send gate, nothing sent now.', schema: sendTemplateResponseSchema },
      404: { description: 'No such template, or no such player.', schema: messageBodySchema },
      409: {
        description: 'Already sent (the same idempotency key, or the same request that day); or an email template and no enabled channel.',
        schema: messageBodySchema,
        illustrations: {
          '409 already sent': {
            summary: 'The same call again',
            value: { message: 'this message was already sent (the same idempotency_key, or the same request today)' },
          },
        },
      },
      422: {
        description:
          'The template does not render with this data (a filter that refused a value, a webhook body that is not JSON): `urm_message_failed` is on the timeline.',
        schema: invalidRequestBodySchema,
        illustrations: {
          '422 does not render': {
            summary: 'A webhook body the data made invalid',
            value: { message: 'the template does not render with this data', errors: ['variants.en.body: does not render to valid JSON'] },
          },
        },
      },
      502: {
        description: "A webhook template's receiver did not take it (its status, a timeout, a refused address): `urm_message_failed` is on the timeline.",
        schema: messageBodySchema,
        illustrations: {
          '502 webhook not delivered': {
            summary: 'The receiver failed',
            value: { message: 'the webhook was not delivered: hooks.casino.example answered 503' },
          },
        },
      },
    },
    examples: {
      // Marketing in the examples: the contract test stands the channel's id in for the word `transactional`.
      '200 sent': {
        summary: 'A welcome bonus, by template, with the bonus',
        body: {
          app_id: p.appId,
          profile_id: p.profileId,
          template_id: p.templateId,
          purpose: 'marketing',
          topic: 'casino',
          data: { bonus: '25.50', currency: 'EUR' },
        },
        answer: { message_id: '010001907a9c1f2e-6b1d3c4e-5f60-4a7b-8c9d-0e1f2a3b4c5d-000000' },
      },
      '404 unknown template': {
        summary: 'A template the application does not have',
        body: { app_id: p.appId, profile_id: p.profileId, template_id: 'no-such-template', purpose: 'marketing' },
        answer: notFound('template not found'),
      },
      '400 no purpose': {
        summary: 'Without `purpose`',
        body: noPurpose,
        answer: refusal(v.sendTemplate, noPurpose),
      },
    },
  },
};
