/**
 * Sending email with SES v2: a configuration set every message goes through
 * (TLS required, bounces and complaints suppressed, reputation metrics), the
 * sender domain's identity when one is given, and for each function that
 * sends, the set's name and the right to ses:SendEmail there and nothing more.
 */
import { CfnOutput, Stack, Token } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { ConfigurationSet, ConfigurationSetTlsPolicy, EmailIdentity, Identity, SuppressionReasons } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import { emailSending } from '../../../functions/shared/manifest/resources';

export interface EmailProps {
  /**
   * The domain mail is sent from (e.g. `mail.example.com`). The stack creates
   * its SES identity with Easy DKIM and outputs the three CNAME records that
   * verify it. Without it no identity is created: verify one in the SES
   * console, and the functions may send from any identity of the account.
   */
  domain?: string;
  /** The functions that send email. */
  senders: LambdaFunction[];
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

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

    const identityArn = this.identity?.emailIdentityArn ?? stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' });
    const configurationSetArn = stack.formatArn({
      service: 'ses',
      resource: 'configuration-set',
      resourceName: this.configurationSet.configurationSetName,
    });
    for (const fn of props.senders) {
      fn.addEnvironment(emailSending.configurationSetEnvVar, this.configurationSet.configurationSetName);
      // SendEmail is authorised on the sender's identity and on the configuration set it names.
      fn.addToRolePolicy(new PolicyStatement({ actions: ['ses:SendEmail'], resources: [identityArn, configurationSetArn] }));
    }
  }
}
