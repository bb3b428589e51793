/**
 * Players in the console: find them, read one and its timeline, change an
 * attribute, send one an email or a push. Reads go to the tables; a change or
 * a send's event goes on the ingestion stream as an integrator's record would
 * (functions/back-office/players.ts, messaging.ts).
 */
import { unsubscribeKeyPattern } from '../../domain/unsubscribe-token';
import { emailLimits } from '../../domain/email';
import { vapidPrivateKeyPattern } from '../../domain/push';
import { editors, everyone, sessionTables, type ConsoleRouteDefinition } from '../route';
import { validChangeAttribute, validListPlayersQuery, validPlayerEmail, validPlayerPush, validPlayerTimelineQuery } from './schemas';

export const routes = [
  {
    id: 'ConsoleListPlayers',
    method: 'GET',
    path: '/console/api/players',
    roles: everyone,
    mutates: false,
    query: validListPlayersQuery,
    // profiles: each listed player (still there? its attributes); playerSearch: a search's terms (one Query per field);
    // apps: the searchable attributes and main currency; funnel: the page's ledgers (one BatchGetItem), their money;
    // figures: the players counter (one GetItem).
    tables: { ...sessionTables, profiles: 'read', playerSearch: 'read', apps: 'read', funnel: 'read', figures: 'read' },
    indexes: { profiles: ['by-app'] },
  },
  {
    id: 'ConsoleGetPlayer',
    method: 'GET',
    path: '/console/api/players/{profile_id}',
    roles: everyone,
    mutates: false,
    // apps: the main currency; funnel: the player's ledger (one GetItem), its lifetime money and attribution;
    // timeline: the newest events, the last login and the oldest event, in bounded queries; sendGate: the caps' counts of the gate line.
    tables: { ...sessionTables, profiles: 'read', rejections: 'read', apps: 'read', funnel: 'read', timeline: 'read', sendGate: 'read' },
  },
  {
    id: 'ConsolePlayerTimeline',
    method: 'GET',
    path: '/console/api/players/{profile_id}/timeline',
    roles: everyone,
    mutates: false,
    query: validPlayerTimelineQuery,
    // apps: which events carry money (money_events) and the main currency.
    tables: { ...sessionTables, profiles: 'read', timeline: 'read', apps: 'read' },
  },
  {
    id: 'ConsoleChangePlayerAttribute',
    method: 'POST',
    path: '/console/api/players/{profile_id}/attributes',
    roles: editors,
    mutates: true,
    body: validChangeAttribute,
    maxBodyBytes: 64 * 1024,
    // profiles: only that the player exists; the change itself goes through the stream, and into the audit log.
    tables: { ...sessionTables, profiles: 'read', auditLog: 'write' },
    stream: 'write',
  },
  {
    id: 'ConsoleEmailPlayer',
    method: 'POST',
    path: '/console/api/players/{profile_id}/email',
    roles: editors,
    mutates: true,
    body: validPlayerEmail,
    maxBodyBytes: emailLimits.requestBytes,
    // pushDeliveries: the action ids (claimed before sending, so a retry sends once) live beside the push claims.
    // senders: that the application still holds the channel's sender. apps, sendGate: the send gate's settings, caps, deferrals.
    tables: {
      ...sessionTables,
      apps: 'read',
      profiles: 'read',
      channels: 'read',
      senders: 'read',
      pushDeliveries: 'readwrite',
      sendGate: 'readwrite',
      auditLog: 'write',
    },
    stream: 'write',
    email: 'send',
    // A marketing mail's unsubscribe address is signed with the application's key, made once if an older application has none.
    secretReads: [unsubscribeKeyPattern],
    secretWrites: [unsubscribeKeyPattern],
  },
  {
    id: 'ConsolePushPlayer',
    method: 'POST',
    path: '/console/api/players/{profile_id}/push',
    roles: editors,
    mutates: true,
    body: validPlayerPush,
    maxBodyBytes: 64 * 1024,
    tables: { ...sessionTables, apps: 'read', profiles: 'read', pushDeliveries: 'readwrite', sendGate: 'readwrite', auditLog: 'write' },
    stream: 'write',
    // The application's VAPID private key, and no other kind of secret.
    secretReads: [vapidPrivateKeyPattern],
    pushEndpoints: true,
  },
] as const satisfies readonly ConsoleRouteDefinition[];
