/** The click address of affiliates' tracking links. */
import { htmlSecurityHeaders } from '../../../functions/http/html';
import { unknownLinkPage } from '../../../functions/api/track-click/pages';
import { VISITOR_COOKIE, VISITOR_COOKIE_MAX_AGE_SECONDS } from '../../../functions/domain/tracking-links';
import { placeholders as p } from '../placeholders';
import type { OperationDoc } from './doc-types';

const pageHeaders = Object.fromEntries(
  Object.entries(htmlSecurityHeaders).map(([name, value]) => [name, { description: 'Sent with every answer.', schema: { const: value } }]),
);

export const trackingLinkDocs: Record<string, OperationDoc> = {
  TrackClick: {
    tag: 'Affiliates',
    summary: 'Follow a tracking link',
    description:
      "An affiliate's tracking link, `{base_url}/t/{link_id}`: public, no key. Redirects (302) to the link's landing URL with " +
      '`urm_aff_id` (the affiliate), `urm_aff_link_id` (the link) and, when the click carried a valid one, `urm_aff` (the sub-id) ' +
      "added to its query string, which the landing page passes on to set_affiliate. A visitor's clicks on one link count once " +
      `in 24 hours (the visitor: the \`${VISITOR_COOKIE}\` cookie, else the address and User-Agent). A suspended or pending ` +
      "affiliate's link redirects without the parameters and counts nothing. An unknown link answers 404 with a page.",
    scopes: [],
    page: true,
    parameters: [
      { name: 'link_id', in: 'path', required: true, description: 'The link: 12 letters and digits.', schema: { type: 'string' } },
      {
        name: 'urm_aff',
        in: 'query',
        required: false,
        description: 'A sub-id (campaign tag) of the affiliate: 1 to 100 letters, digits, `.`, `_`, `-`. Anything else is dropped; the click still redirects.',
        schema: { type: 'string' },
      },
      {
        name: VISITOR_COOKIE,
        in: 'cookie',
        required: false,
        description: 'Who the visitor is, set by an earlier click.',
        schema: { type: 'string' },
      },
    ],
    responses: {
      302: {
        description: "On to the landing URL, with the affiliate's parameters; no body.",
        html: true,
        headers: {
          ...pageHeaders,
          Location: {
            description: 'The stored landing URL, its own query kept, with `urm_aff_id`, `urm_aff_link_id` and `urm_aff` after it.',
            schema: { type: 'string' },
          },
          'Set-Cookie': {
            description: `When the click carried no visitor cookie: \`${VISITOR_COOKIE}=…; Path=/t/; Max-Age=${VISITOR_COOKIE_MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax; Secure\` (the path as the API is reached, e.g. \`/v1/t/\`).`,
            schema: { type: 'string' },
          },
        },
      },
      404: { description: 'No such link: a page says so.', html: true, headers: pageHeaders },
    },
    examples: {
      '302 click': { summary: 'A click with a sub-id', path: { link_id: p.linkId }, query: { urm_aff: 'spring-promo' }, answer: '' },
      '404 unknown link': { summary: 'A link that does not exist', path: { link_id: 'AAAAAAAAAAAA' }, answer: unknownLinkPage() },
    },
  },
};
