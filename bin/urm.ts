/**
 * The CDK app: `npx cdk synth|deploy`. `URM_STACK_NAME` names the stack (one
 * account can hold several); `URM_NAG=1` runs the cdk-nag AWS Solutions checks;
 * `URM_EMAIL_DOMAIN` (or `-c urm:emailDomain=…`) is the domain email is sent from.
 */
import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { UrmStack } from '../lib/urm-stack';

const app = new App();

new UrmStack(app, process.env.URM_STACK_NAME ?? 'Urm', {
  // No `env`: the template stays environment-agnostic, so synth needs no credentials and makes no lookups.
  description: 'urm: customer-relationship and affiliate platform',
});

if (process.env.URM_NAG === '1') {
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
}
