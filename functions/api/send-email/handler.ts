import { kinesis } from '../../adapters/clients/kinesis';
import { sesv2 } from '../../adapters/clients/sesv2';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { SesMailer } from '../../adapters/ses-mailer';
import { appStore, channelStore, deferredOutbox, deliveryClaims, keyResolver, profileStore, senderStore, sentCounts } from '../../adapters/stores';
import { emailSending, ingestStream } from '../../manifest/resources';
import { nowFor } from '../../runtime/clock';
import { optionalEnv, requireEnv } from '../../runtime/config';
import { secretStoreFromEnv } from '../../adapters/secret-store';
import { unsubscribeLinks } from '../../messaging/unsubscribe';
import { makeSendEmailHandler } from './make-handler';

export const handler = makeSendEmailHandler({
  keys: keyResolver(),
  channels: channelStore(),
  senders: senderStore(),
  // No configuration set in the local stack: the variable is set only by the CDK stack.
  mailer: new SesMailer(sesv2, optionalEnv(emailSending.configurationSetEnvVar, '') || undefined),
  writer: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
  now: () => new Date(),
  gate: {
    apps: appStore(),
    profiles: profileStore(),
    counts: sentCounts(),
    messageClaims: deliveryClaims(),
    outbox: deferredOutbox(),
    appTime: nowFor,
    unsubscribe: unsubscribeLinks({ secrets: secretStoreFromEnv() }),
  },
});
