/** Enterprise users, their sign-in, and the application's portal pages. */
import { signInAnswerSchema } from '../../../functions/api/enterprise-sign-in/schema';
import { signUpAnswerSchema } from '../../../functions/api/enterprise-sign-up/schema';
import { messageBodySchema } from '../../../functions/http/error-bodies';
import { htmlSecurityHeaders } from '../../../functions/http/html';
import { CONSOLE_LANDING, linkRefusedPage, portalMovedPage, signedInRedirectPage } from '../../../functions/enterprise-portal/pages';
import { SESSION_COOKIE } from '../../../functions/http/session-cookie';
import { placeholders as p } from '../placeholders';
import { notFound, refusal, v } from './common';
import type { OperationDoc, ParameterDoc } from './doc-types';

const sessionCookieParameter: ParameterDoc = {
  name: SESSION_COOKIE,
  in: 'cookie',
  required: false,
  description: 'The portal session, set by /redirect.',
  schema: { type: 'string' },
};
const pageHeaders = Object.fromEntries(
  Object.entries(htmlSecurityHeaders).map(([name, value]) => [name, { description: 'Sent with every page.', schema: { const: value } }]),
);

const invalidSignUp = { app_id: p.appId, users: [{ email: 'grace.hopper', first_name: 'Grace', last_name: ' ' }] };
const adminSignUp = { app_id: p.appId, users: [{ email: p.enterpriseEmail, first_name: 'Grace', last_name: 'Hopper', role: 'admin' }] };

export const enterprisePortalDocs: Record<string, OperationDoc> = {
  EnterpriseSignUp: {
    tag: 'Enterprise',
    summary: 'Sign up enterprise users',
    description:
      'Creates 1 to 100 users of the application, idempotent by email (compared without case): an email already signed ' +
      'up answers that user, unchanged, with `created: false`. Each user may be given a `role`, `marketer` or `viewer`: ' +
      '`admin` is a 400 naming `role` (an admin is made by an admin in the console, or by the operator). Without one, the ' +
      'first user an application ever has is its `admin`, and any later one a `viewer`.',
    scopes: ['server'],
    body: { validate: v.signUp, description: 'The users.' },
    responses: { 200: { description: 'The users, in input order.', schema: signUpAnswerSchema } },
    examples: {
      '200 signed up': {
        summary: 'One new user',
        body: { app_id: p.appId, users: [{ email: p.enterpriseEmail, first_name: 'Grace', last_name: 'Hopper' }] },
        answer: { users: [{ user_id: p.userId, email: p.enterpriseEmail, first_name: 'Grace', last_name: 'Hopper', role: 'admin', created: true }] },
      },
      '400 invalid user': {
        summary: 'An invalid email and a blank name',
        body: invalidSignUp,
        answer: refusal(v.signUp, invalidSignUp),
      },
      '400 admin role': {
        summary: 'A user signed up as admin: a server key makes none',
        body: adminSignUp,
        answer: refusal(v.signUp, adminSignUp),
      },
    },
  },
  EnterpriseSignIn: {
    tag: 'Enterprise',
    summary: 'Issue a sign-in link',
    description:
      "A one-time token, valid 5 minutes, and the portal address that uses it: send the user's browser to `redirect_url`. " +
      'Answered with `Cache-Control: no-store`.',
    scopes: ['server'],
    body: { validate: v.signIn, description: 'The user to sign in.' },
    responses: {
      200: {
        description: 'The sign-in link.',
        schema: signInAnswerSchema,
        headers: { 'Cache-Control': { description: 'The token is shown once.', schema: { const: 'no-store' } } },
      },
      404: { description: 'No such user in the application.', schema: messageBodySchema },
      409: {
        description: 'The application has no portal origin configured: no token is issued.',
        schema: messageBodySchema,
        illustrations: {
          '409 no portal origin': {
            summary: 'An application without a portal origin',
            value: { message: 'the application has no portal origin configured; ask your account manager to set it' },
          },
        },
      },
    },
    examples: {
      '200 token issued': {
        summary: 'A signed-up user',
        body: { app_id: p.appId, user_id: p.userId },
        answer: {
          token: p.signInToken,
          redirect_url: `https://portal.casino.example/redirect?token=${p.signInToken}`,
          expires_at: '2026-01-31T12:05:00.000Z',
        },
      },
      '404 unknown user': {
        summary: 'A user id the application does not have',
        body: { app_id: p.appId, user_id: 'usr_000000000000000000000000' },
        answer: notFound('user not found'),
      },
      '400 empty user id': {
        summary: 'An empty `user_id`',
        body: { app_id: p.appId, user_id: '' },
        answer: refusal(v.signIn, { app_id: p.appId, user_id: '' }),
      },
    },
  },
  EnterpriseRedirect: {
    tag: 'Enterprise',
    summary: 'Open a sign-in link',
    description:
      'The page `redirect_url` leads to. A good token is used up, starts a portal session (cookie) and redirects to ' +
      'the back-office console; a used, expired, unknown or missing one answers 401 with a page saying which.',
    scopes: [],
    page: true,
    parameters: [{ name: 'token', in: 'query', required: true, description: 'The sign-in token.', schema: { type: 'string' } }],
    responses: {
      303: {
        description: 'Signed in: on to the console.',
        html: true,
        headers: {
          ...pageHeaders,
          Location: { description: 'The back-office console, relative: `console/`.', schema: { const: CONSOLE_LANDING } },
          'Set-Cookie': {
            description: `The session: \`${SESSION_COOKIE}=…; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax; Secure\`.`,
            schema: { type: 'string' },
          },
        },
      },
      401: { description: 'The link was refused.', html: true, headers: pageHeaders },
    },
    examples: {
      '303 signed in': { summary: 'A fresh token', query: { token: p.signInToken }, answer: signedInRedirectPage() },
      '401 link refused': {
        summary: 'A token that was never issued',
        query: { token: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
        answer: linkRefusedPage('unknown'),
      },
    },
  },
  PortalHome: {
    tag: 'Enterprise',
    summary: 'The former portal home',
    description:
      'The landing page before the back-office console, kept for old links and bookmarks: it sends the browser on to the console ' +
      '(`console/`, relative), where a live session is signed in and any other is asked to sign in again.',
    scopes: [],
    page: true,
    parameters: [sessionCookieParameter],
    responses: {
      303: {
        description: 'On to the console.',
        html: true,
        headers: { ...pageHeaders, Location: { description: 'The console, relative: `console/`.', schema: { const: CONSOLE_LANDING } } },
      },
    },
    examples: {
      '303 to the console': { summary: 'Any visit', cookies: { [SESSION_COOKIE]: p.sessionId }, answer: portalMovedPage() },
    },
  },
};
