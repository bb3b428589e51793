import { beforeAll, describe, expect, test } from '@jest/globals';
import { Aspects } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import type { SynthesisMessage } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import { UrmStack } from '../../lib/aws/urm-stack';
import { testApp } from '../support/cdk';

interface Suppression {
  id: string;
  reason: string;
  applies_to?: unknown[];
}

let annotations: Annotations;
let template: Template;

// The stack as `cdk synth` makes it (cdk.json's feature flags, bin/urm.ts's checks), minus bundling the
// functions' code: no rule reads code, and skipping it keeps this file to a few seconds.
beforeAll(() => {
  const stack = new UrmStack(testApp({ bundle: false }), 'UrmNagTest');
  Aspects.of(stack).add(new AwsSolutionsChecks());
  annotations = Annotations.fromStack(stack);
  template = Template.fromStack(stack);
});

const awsSolutions = Match.stringLikeRegexp('AwsSolutions-|CdkNagValidationFailure');
/** One line per finding: the construct path, the rule (with its finding) and what the rule asks for. */
const describeFindings = (findings: SynthesisMessage[]) => findings.map((finding) => `${finding.id}: ${String(finding.entry.data).split('. ')[0]}`);

/** The suppressions written into the template, by resource logical id. */
function suppressions(): [string, Suppression][] {
  return Object.entries(template.toJSON().Resources as Record<string, { Metadata?: { cdk_nag?: { rules_to_suppress: Suppression[] } } }>).flatMap(
    ([logicalId, resource]) => (resource.Metadata?.cdk_nag?.rules_to_suppress ?? []).map((rule) => [logicalId, rule] as [string, Suppression]),
  );
}

describe('cdk-nag AwsSolutions checks of the stack', () => {
  test('find no error that is not suppressed with a reason', () => {
    const errors = annotations.findError('*', awsSolutions);

    expect(describeFindings(errors)).toEqual([]);
  });

  test('find no warning that is not suppressed with a reason', () => {
    const warnings = annotations.findWarning('*', awsSolutions);

    expect(describeFindings(warnings)).toEqual([]);
  });

  test('no rule is suppressed for the whole stack', () => {
    expect(template.toJSON().Metadata?.cdk_nag).toBe(undefined);
  });

  test('IAM findings are suppressed one by one: each names the policy, action or resource it accepts', () => {
    const iam = suppressions().filter(([, rule]) => rule.id === 'AwsSolutions-IAM4' || rule.id === 'AwsSolutions-IAM5');

    expect(iam.length > 0).toBeTruthy();
    for (const [, rule] of iam) expect((rule.applies_to ?? []).length > 0).toBeTruthy();
  });

  test('no suppression accepts an SES wildcard: the send function names its identities, even without a sender domain', () => {
    const ses = suppressions().filter(([, rule]) => JSON.stringify(rule.applies_to ?? []).includes(':ses:'));

    expect(ses).toEqual([]);
  });

  test('no suppression accepts the whole secrets path: every SSM grant names a kind of secret, or is DescribeParameters', () => {
    const ssm = suppressions().filter(([, rule]) => JSON.stringify(rule.applies_to ?? []).includes(':ssm:'));
    const wholePath = ssm.filter(([, rule]) => JSON.stringify(rule.applies_to).includes(':parameter/urm/UrmNagTest/*"'));
    const everything = suppressions().filter(([, rule]) => rule.id === 'AwsSolutions-IAM5' && (rule.applies_to ?? []).includes('Resource::*'));

    expect(ssm.length > 0).toBeTruthy();
    expect(wholePath).toEqual([]);
    // `*` is accepted for DescribeParameters only (it has no resource-level permission), and for CDK's own deployment handler.
    for (const [logicalId, rule] of everything)
      expect([logicalId, rule.reason]).toEqual([logicalId, expect.stringMatching(/ssm:DescribeParameters|BucketDeployment/)]);
  });

  test('every suppression gives a reason of a full sentence or more', () => {
    for (const [, rule] of suppressions()) {
      expect(rule.reason.split(/\s+/).length >= 12).toBeTruthy();
    }
  });
});
