/** The affiliate portal's one function (docs/api.md, "The affiliate portal"), on the stack's stores, SES and secrets. */
import { kinesis } from '../adapters/clients/kinesis';
import { KinesisRecordWriter } from '../adapters/kinesis-record-writer';
import { secretStoreFromEnv } from '../adapters/secret-store';
import { sesv2 } from '../adapters/clients/sesv2';
import { SesMailer } from '../adapters/ses-mailer';
import * as stores from '../adapters/stores';
import { postbackHostList } from '../domain/postbacks';
import { emailSending, ingestStream, postbackSending } from '../manifest/resources';
import { optionalEnv, requireEnv } from '../runtime/config';
import { makeAffiliatePortalHandler } from './make-handler';

export const handler = makeAffiliatePortalHandler({
  ...stores.reportStores(),
  accounts: stores.affiliateAccounts(),
  sessions: stores.affiliateSessionStore(),
  attempts: stores.signInAttempts(),
  resetTokens: stores.resetTokenStore(),
  channels: stores.channelStore(),
  senders: stores.senderStore(),
  mailer: new SesMailer(sesv2, optionalEnv(emailSending.configurationSetEnvVar, '') || undefined),
  // The operator's development hosts, as the sender and `npm run admin` allow them.
  postbacks: {
    settings: stores.postbackSettings(),
    log: stores.postbackOutbox(),
    allowedHosts: postbackHostList(optionalEnv(postbackSending.allowedHostsEnvVar, '')),
  },
  secrets: secretStoreFromEnv(),
  statements: stores.statementStore(),
  payouts: stores.payoutStore(),
  audit: stores.auditLog(),
  profiles: stores.profileStore(),
  writer: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
});
