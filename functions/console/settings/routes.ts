/**
 * The application's settings in the console (admin only; channels are read by
 * marketers too, who send email): the same use cases as the admin command
 * line (functions/back-office/), each state-changing one audited.
 */
import { identitySecretPattern } from '../../domain/identity';
import { vapidPrivateKeyPattern } from '../../domain/push';
import { admins, editors, sessionTables, type ConsoleRouteDefinition } from '../route';
import { validCreateChannelBody, validGenerateVapidBody, validIssueKeyBody, validSetMoneyBody, validUpdateAppBody, validUpdateChannelBody } from './schemas';

export const routes = [
  {
    id: 'ConsoleListKeys',
    method: 'GET',
    path: '/console/api/keys',
    roles: admins,
    mutates: false,
    tables: { ...sessionTables, apps: 'read', keys: 'read' },
    indexes: { keys: ['by-app'] },
  },
  {
    id: 'ConsoleIssueKey',
    method: 'POST',
    path: '/console/api/keys',
    roles: admins,
    mutates: true,
    body: validIssueKeyBody,
    maxBodyBytes: 1024,
    tables: { ...sessionTables, apps: 'read', keys: 'write', auditLog: 'write' },
  },
  {
    id: 'ConsoleRevokeKey',
    method: 'POST',
    path: '/console/api/keys/{key_id}/revoke',
    roles: admins,
    mutates: true,
    maxBodyBytes: 1024,
    // keys: the application's key by id through by-app, then its revoked_at.
    tables: { ...sessionTables, apps: 'read', keys: 'readwrite', auditLog: 'write' },
    indexes: { keys: ['by-app'] },
  },
  {
    id: 'ConsoleGetApp',
    method: 'GET',
    path: '/console/api/app',
    roles: admins,
    mutates: false,
    tables: { ...sessionTables, apps: 'read' },
    // Whether the application has an identity secret: asked, never read.
    secretChecks: [identitySecretPattern],
  },
  {
    id: 'ConsoleUpdateApp',
    method: 'POST',
    path: '/console/api/app',
    roles: admins,
    mutates: true,
    body: validUpdateAppBody,
    maxBodyBytes: 16 * 1024,
    // affiliates: that a default plan is one of the application's plans.
    tables: { ...sessionTables, apps: 'readwrite', affiliates: 'read', auditLog: 'write' },
  },
  {
    // Marketers read them too: they pick the channel a player's email is sent through.
    id: 'ConsoleListChannels',
    method: 'GET',
    path: '/console/api/channels',
    roles: editors,
    mutates: false,
    tables: { ...sessionTables, apps: 'read', channels: 'read' },
  },
  {
    // senders: only the application's own may be a channel's (the operator assigns them; the console never does).
    id: 'ConsoleCreateChannel',
    method: 'POST',
    path: '/console/api/channels',
    roles: admins,
    mutates: true,
    body: validCreateChannelBody,
    maxBodyBytes: 4 * 1024,
    tables: { ...sessionTables, apps: 'read', channels: 'write', senders: 'read', auditLog: 'write' },
  },
  {
    id: 'ConsoleUpdateChannel',
    method: 'POST',
    path: '/console/api/channels/{channel_id}',
    roles: admins,
    mutates: true,
    body: validUpdateChannelBody,
    maxBodyBytes: 1024,
    tables: { ...sessionTables, apps: 'read', channels: 'readwrite', senders: 'read', auditLog: 'write' },
  },
  {
    // What a channel may be made with: read only, through by-app.
    id: 'ConsoleListSenders',
    method: 'GET',
    path: '/console/api/senders',
    roles: admins,
    mutates: false,
    tables: { ...sessionTables, apps: 'read', senders: 'read' },
    indexes: { senders: ['by-app'] },
  },
  {
    // The public half only: the private key is in the secret store, which this route does not read.
    id: 'ConsoleGetVapid',
    method: 'GET',
    path: '/console/api/vapid',
    roles: admins,
    mutates: false,
    tables: { ...sessionTables, apps: 'read' },
  },
  {
    id: 'ConsoleGenerateVapid',
    method: 'POST',
    path: '/console/api/vapid',
    roles: admins,
    mutates: true,
    body: validGenerateVapidBody,
    maxBodyBytes: 1024,
    tables: { ...sessionTables, apps: 'readwrite', auditLog: 'write' },
    // The private key: written, never read back here.
    secretWrites: [vapidPrivateKeyPattern],
  },
  {
    id: 'ConsoleRotateIdentitySecret',
    method: 'POST',
    path: '/console/api/identity_secret',
    roles: admins,
    mutates: true,
    maxBodyBytes: 1024,
    tables: { ...sessionTables, apps: 'read', auditLog: 'write' },
    secretWrites: [identitySecretPattern],
  },
  {
    id: 'ConsoleGetMoney',
    method: 'GET',
    path: '/console/api/money',
    roles: admins,
    mutates: false,
    tables: { ...sessionTables, apps: 'read' },
  },
  {
    id: 'ConsoleSetMoney',
    method: 'POST',
    path: '/console/api/money',
    roles: admins,
    mutates: true,
    body: validSetMoneyBody,
    maxBodyBytes: 16 * 1024,
    tables: { ...sessionTables, apps: 'readwrite', auditLog: 'write' },
  },
] as const satisfies readonly ConsoleRouteDefinition[];
