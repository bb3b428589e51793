/** In-memory messaging ports: the back office's action claims, a mail service, web push deliveries and their claims. */
import type { ActionOutcome, ClaimedAction, SentActions } from '../../functions/back-office/messaging';
import type { Mailer, OutgoingMail } from '../../functions/domain/email';
import type { DeliveryClaims, PushOutcome, PushSender, PushSubscriptionJson, VapidDetails, VapidKeyring } from '../../functions/domain/push';

/** The action claims in memory, as the table keeps them. */
export class MemorySentActions implements SentActions {
  readonly items = new Map<string, ClaimedAction>();
  async claim(appId: string, id: string, fingerprint: string) {
    const earlier = this.items.get(`${appId}#${id}`);
    if (earlier) return earlier;
    this.items.set(`${appId}#${id}`, { fingerprint });
    return undefined;
  }
  async settle(appId: string, id: string, outcome: ActionOutcome) {
    this.items.set(`${appId}#${id}`, { ...this.items.get(`${appId}#${id}`)!, outcome: structuredClone(outcome) });
  }
  async release(appId: string, id: string) {
    this.items.delete(`${appId}#${id}`);
  }
}

/** A mail service that keeps what it is given and answers message ids `ses-1`, `ses-2`, … */
export class MemoryMailer implements Mailer {
  readonly sent: OutgoingMail[] = [];
  async send(mail: OutgoingMail) {
    this.sent.push(mail);
    return `ses-${this.sent.length}`;
  }
}

/** Delivery claims in memory: a delivery is claimed once, until given back. */
export class MemoryDeliveryClaims implements DeliveryClaims {
  readonly claimed = new Set<string>();
  async claim(appId: string, notificationId: string, subscription: string) {
    const key = `${appId}#${notificationId}#${subscription}`;
    if (this.claimed.has(key)) return false;
    this.claimed.add(key);
    return true;
  }
  async release(appId: string, notificationId: string, subscription: string) {
    this.claimed.delete(`${appId}#${notificationId}#${subscription}`);
  }
}

/** Push services that take every message, keeping the endpoints they were sent to. */
export class MemoryPushSender implements PushSender {
  readonly sent: string[] = [];
  async send(subscription: PushSubscriptionJson): Promise<PushOutcome> {
    this.sent.push(subscription.endpoint);
    return { status: 'sent' };
  }
}

/** Every application's VAPID keys, or none's. */
export function fixedVapid(
  details: VapidDetails | undefined = { subject: 'mailto:ops@example.com', publicKey: 'BPublic', privateKey: 'private' },
): VapidKeyring {
  return { forApp: async () => details };
}
