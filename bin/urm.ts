/**
 * The CDK app: `npx cdk synth|deploy`. `URM_STACK_NAME` names the stack (one
 * account can hold several); `URM_EMAIL_DOMAIN` (or `-c urm:emailDomain=…`) is
 * the domain email is sent from, and `URM_EMAIL_IDENTITIES` (or
 * `-c urm:emailIdentities=…`, comma-separated) the SES identities verified
 * outside the stack that it may also send from; `URM_PUSH_ENDPOINT_HOSTS` (or
 * `-c urm:pushEndpointHosts=…`) the push services allowed besides the browsers'. The cdk-nag AWS Solutions checks run on every
 * synth: a finding not accepted in lib/aws/nag-suppressions.ts is an error, and
 * errors stop `cdk deploy`. `URM_NAG=0` skips them while iterating.
 *
 * Synth is quiet: esbuild reports only warnings and errors unless `URM_VERBOSE_SYNTH=1` (or
 * `-c urm:verboseSynth=1`). A bundle whose inputs did not change is reused from cdk.out, and a
 * template that validated clean is not validated again (lib/aws/constructs/function-code.ts,
 * lib/aws/validation-cache.ts), so a second synth takes a fraction of the first.
 */
import { App, Aspects, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { UrmStack } from '../lib/aws/urm-stack';
import { CachedCloudFormationValidation } from '../lib/aws/validation-cache';

const app = new App();
Validations.of(app).addPlugins(new CachedCloudFormationValidation());

new UrmStack(app, process.env.URM_STACK_NAME ?? 'Urm', {
  // No `env`: the template stays environment-agnostic, so synth needs no credentials and makes no lookups.
  description: 'urm: customer-relationship and affiliate platform',
});

if (process.env.URM_NAG !== '0') {
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
}
