import { keyResolver } from '../../adapters/stores';
import { containerTemplateSender } from '../../adapters/senders';
import { countedMailer } from '../../runtime/metrics';
import { makeSendTemplateHandler } from './make-handler';

export const handler = makeSendTemplateHandler({
  keys: keyResolver(),
  now: () => new Date(),
  send: containerTemplateSender({ mailer: countedMailer }).sendTemplate,
});
