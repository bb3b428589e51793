/**
 * Sending email with SES v2: a configuration set every message goes through
 * (TLS required, bounces and complaints suppressed, reputation metrics, its
 * bounces, complaints and deliveries published to EventBridge), the
 * sender domain's identity when one is given, and for each function that
 * sends, the set's name and the right to ses:SendEmail there, from the
 * stack's identities only, and only as their addresses (`ses:FromAddress`).
 * Not per application: every application's requests share each function's
 * role, so which application may send as which address is checked at every
 * send against the operator's assignments (docs/api.md, "Senders").
 */
import { Annotations, CfnOutput, Stack, Token } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { EventBus } from 'aws-cdk-lib/aws-events';
import {
  ConfigurationSet,
  ConfigurationSetTlsPolicy,
  EmailIdentity,
  EmailSendingEvent,
  EventDestination,
  Identity,
  SuppressionReasons,
} from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import { canonicalAddress } from '../../../functions/domain/email';
import { emailSending } from '../../../functions/manifest/resources';

export interface EmailProps {
  /**
   * The domain mail is sent from (e.g. `mail.example.com`). The stack creates
   * its SES identity with Easy DKIM and outputs the three CNAME records that
   * verify it.
   */
  domain?: string;
  /**
   * SES identities verified outside the stack, each a domain (`example.org`)
   * or an address (`news@example.net`), as verified. The functions may send
   * from these too.
   */
  identities?: string[];
  /** The functions that send email. */
  senders: LambdaFunction[];
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
/** An ASCII address whose domain is a domain name: what an SES email address identity is. */
const ADDRESS = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(.+)$/i;

const isAddress = (identity: string) => ADDRESS.test(identity) && DOMAIN.test(identity.slice(identity.lastIndexOf('@') + 1));

/**
 * What `ses:FromAddress` may be for an identity: any address at a domain, or
 * the address itself; the domain in lower case, as send_email sends it (the
 * condition is matched case-sensitively).
 */
function fromAddressPattern(identity: string): string {
  if (Token.isUnresolved(identity)) return `*@${identity}`;
  return identity.includes('@') ? canonicalAddress(identity) : `*@${identity.toLowerCase()}`;
}

export class Email extends Construct {
  readonly configurationSet: ConfigurationSet;
  readonly identity?: EmailIdentity;

  constructor(scope: Construct, id: string, props: EmailProps) {
    super(scope, id);
    const stack = Stack.of(this);

    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      tlsPolicy: ConfigurationSetTlsPolicy.REQUIRE,
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
      reputationMetrics: true,
      sendingEnabled: true,
    });
    new CfnOutput(stack, 'EmailConfigurationSetName', { value: this.configurationSet.configurationSetName });
    // Bounces, complaints, deliveries, opens and clicks to the default bus (the only one SES publishes to), where the
    // stack's rule takes this set's (event-functions.ts). Opens and clicks: SES adds the pixel and rewrites the links itself.
    this.configurationSet.addEventDestination('Events', {
      destination: EventDestination.eventBus(EventBus.fromEventBusName(this, 'DefaultBus', 'default')),
      events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT, EmailSendingEvent.DELIVERY, EmailSendingEvent.OPEN, EmailSendingEvent.CLICK],
    });

    if (props.domain !== undefined && props.domain !== '') {
      if (!Token.isUnresolved(props.domain) && !DOMAIN.test(props.domain)) {
        throw new Error(`The email domain must be a domain name such as mail.example.com, not "${props.domain}"`);
      }
      this.identity = new EmailIdentity(this, 'Identity', {
        identity: Identity.domain(props.domain),
        configurationSet: this.configurationSet,
        dkimSigning: true,
      });
      const records = [
        [this.identity.dkimDnsTokenName1, this.identity.dkimDnsTokenValue1],
        [this.identity.dkimDnsTokenName2, this.identity.dkimDnsTokenValue2],
        [this.identity.dkimDnsTokenName3, this.identity.dkimDnsTokenValue3],
      ];
      records.forEach(([name, value], i) => {
        new CfnOutput(stack, `EmailDkimRecord${i + 1}`, {
          description: 'Add to the domain DNS as a CNAME record: SES verifies the identity by it',
          value: `${name} CNAME ${value}`,
        });
      });
    }

    for (const identity of props.identities ?? []) {
      if (!DOMAIN.test(identity) && !isAddress(identity)) {
        throw new Error(`The email identities must be domains or addresses, such as example.org or news@example.org, not "${identity}"`);
      }
    }
    // Identity ARNs as SES names them: the created one by reference, the others as they were verified.
    const senders = [
      ...(this.identity ? [{ arn: this.identity.emailIdentityArn, from: fromAddressPattern(props.domain!) }] : []),
      ...(props.identities ?? []).map((identity) => ({
        arn: stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity }),
        from: fromAddressPattern(identity),
      })),
    ];
    const configurationSetArn = stack.formatArn({
      service: 'ses',
      resource: 'configuration-set',
      resourceName: this.configurationSet.configurationSetName,
    });
    if (senders.length === 0) {
      Annotations.of(this).addWarningV2(
        'urm:email-no-sender',
        'The stack can send no email: send_email has no SES identity to send from. Set URM_EMAIL_DOMAIN (or -c ' +
          'urm:emailDomain=) for the stack to create one, or URM_EMAIL_IDENTITIES (or -c urm:emailIdentities=) to name ' +
          'identities verified outside it.',
      );
    }
    const fromAddresses = senders.map((sender) => sender.from);
    for (const fn of props.senders) {
      fn.addEnvironment(emailSending.configurationSetEnvVar, this.configurationSet.configurationSetName);
      if (senders.length === 0) continue;
      // SendEmail is authorised on the sender's identity and on the configuration set it names; the condition
      // keeps the function to the stack's own senders, never another identity of the account.
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['ses:SendEmail'],
          resources: [...senders.map((sender) => sender.arn), configurationSetArn],
          conditions: { StringLike: { 'ses:FromAddress': fromAddresses.length === 1 ? fromAddresses[0] : fromAddresses } },
        }),
      );
    }
  }
}
