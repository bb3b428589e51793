/**
 * A player's unsubscribe link (docs/api.md, "Unsubscribe"): the preference
 * page, RFC 8058's one-click POST, and the page's form. The token (checked
 * before, checks.ts) names the application and the player: nothing here can
 * reach another. Each change is written through the stream, so the operator
 * reads it back on the profile and the timeline.
 *
 * The one-click POST needs nothing but the link (mail clients post it with
 * no cookie). The page's form, which may also rejoin a topic, carries a form
 * token derived from the link's under the application's key, and is refused
 * when the browser says it was posted from another site (Sec-Fetch-Site).
 */
import { h } from 'preact';
import type { Attributes } from '../domain/attributes';
import { toStreamEntries, type RecordWriter } from '../domain/ingest';
import { partitionKey } from '../domain/stream-record';
import type { ProfileStore } from '../domain/timeline';
import { preferencesFormToken, preferencesFormTokenMatches } from '../domain/unsubscribe-token';
import { alreadyDone, applied, preferenceRecords, preferencesOf, type PreferenceChange, type UnsubscribeMethod } from '../messaging/unsubscribe';
import { logger } from '../runtime/logger';
import type { UnsubscribeVisit } from './checks';
import { PreferencesPage, PreferencesRefusedPage, UnsubscribedPage, type Confirmation, type Topic } from './pages/unsubscribe';
import { page } from './render';

export interface UnsubscribePorts {
  profiles: Pick<ProfileStore, 'get'>;
  writer: RecordWriter;
  now: () => Date;
}

const topicsOf = (visit: UnsubscribeVisit): Topic[] => visit.app.messaging?.topics ?? [];

export function unsubscribeWork(ports: UnsubscribePorts) {
  /** The player's attributes and the profile's version, read consistently: a change the stream applied a moment ago shows. */
  const read = async (visit: UnsubscribeVisit): Promise<{ attributes: Attributes; version: number }> => {
    const stored = await ports.profiles.get(partitionKey(visit.app.app_id, visit.claims.profileId), true);
    return stored?.exists ? { attributes: JSON.parse(stored.attrs) as Attributes, version: stored.version } : { attributes: {}, version: 0 };
  };

  /** Writes the changes not yet on the profile, in one request: the profile's record before its event, on the player's partition. */
  const write = async (visit: UnsubscribeVisit, version: number, changes: PreferenceChange[], method: UnsubscribeMethod): Promise<void> => {
    if (changes.length === 0) return;
    const at = ports.now();
    const subject = {
      appId: visit.app.app_id,
      profileId: visit.claims.profileId,
      token: visit.token,
      version,
      ...(visit.claims.campaign ? { campaign: visit.claims.campaign } : {}),
    };
    const records = changes.flatMap((change) => preferenceRecords(at, subject, change, method));
    // Every record has its insert id: no new one is ever asked for.
    const ids = { now: () => at, newId: noNewId };
    const entries = records.flatMap((record) => toStreamEntries('event' in record ? 'event' : 'profile', [record], subject.appId, ids));
    const receipt = await ports.writer.write(entries);
    // Not written: the answer is an error, so a mail client's POST or the person tries again (the same insert ids).
    if (receipt.FailedRecordCount > 0) throw new Error(`the stream refused ${receipt.FailedRecordCount} unsubscribe record(s)`);
    logger.info('Unsubscribe written', { app_id: subject.appId, method, changes: changes.length });
  };

  const pageOf = (visit: UnsubscribeVisit, attributes: Attributes, action: string, done?: Confirmation) => {
    const preferences = preferencesOf(attributes);
    const topics = topicsOf(visit);
    return h(PreferencesPage, {
      appName: visit.app.name,
      topics,
      left: preferences.left,
      consent: preferences.consent,
      action,
      formToken: preferencesFormToken(visit.key, visit.token),
      linkTopic: topics.find((topic) => topic.name === visit.claims.topic),
      done,
    });
  };

  return {
    // A GET changes nothing: mail scanners follow links.
    UnsubscribePage: async (visit: UnsubscribeVisit) => {
      const { attributes } = await read(visit);
      return page(200, pageOf(visit, attributes, `${visit.token}/preferences`));
    },

    UnsubscribeOneClick: async (visit: UnsubscribeVisit) => {
      const { attributes, version } = await read(visit);
      const change: PreferenceChange = visit.claims.topic !== undefined ? { leave: true, topic: visit.claims.topic } : { leave: true };
      await write(visit, version, alreadyDone(preferencesOf(attributes), change) ? [] : [change], 'one_click');
      const topic =
        visit.claims.topic === undefined
          ? undefined
          : (topicsOf(visit).find((t) => t.name === visit.claims.topic) ?? { name: visit.claims.topic, label: visit.claims.topic });
      return page(200, h(UnsubscribedPage, { appName: visit.app.name, topic, manage: visit.token }));
    },

    UnsubscribePreferences: async (visit: UnsubscribeVisit) => {
      const fetchSite = visit.event.headers?.['sec-fetch-site'];
      if (fetchSite === 'cross-site' || !preferencesFormTokenMatches(visit.key, visit.token, visit.form.form)) {
        logger.info('Preferences form refused', { app_id: visit.app.app_id });
        return page(403, h(PreferencesRefusedPage, { appName: visit.app.name, manage: `../${visit.token}` }));
      }
      const { attributes, version } = await read(visit);
      const current = preferencesOf(attributes);
      let changes: PreferenceChange[];
      let done: Confirmation;
      if (visit.form.action === 'all') {
        changes = [{ leave: true }];
        done = { all: true };
      } else {
        const topics = topicsOf(visit);
        const wanted = (topic: Topic) => visit.form[`topic.${topic.name}`] !== undefined;
        const left = topics.filter((topic) => !wanted(topic) && !current.left.includes(topic.name));
        const rejoined = topics.filter((topic) => wanted(topic) && current.left.includes(topic.name));
        changes = [
          ...left.map((topic): PreferenceChange => ({ leave: true, topic: topic.name })),
          ...rejoined.map((topic): PreferenceChange => ({ leave: false, topic: topic.name })),
        ];
        done = { all: false, left, rejoined };
      }
      changes = changes.filter((change) => !alreadyDone(current, change));
      await write(visit, version, changes, 'page');
      // Shown as the stream will leave it, which may be a moment after this answer.
      const after = changes.reduce(applied, current);
      const shown: Attributes = {
        ...attributes,
        urm_unsubscribed_topics: after.left,
        ...(after.consent !== undefined ? { urm_consent_email: after.consent } : {}),
      };
      return page(200, pageOf(visit, shown, 'preferences', done));
    },
  };
}

function noNewId(): string {
  throw new Error('an unsubscribe record without its insert id');
}
