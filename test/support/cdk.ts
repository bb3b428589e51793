/** CDK apps for the infra tests, with cdk.json's feature flags applied as `cdk synth` applies them. */
import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';

export interface TestAppOptions {
  /** false: no function is bundled (for tests that read no function code); synthesis takes a moment instead of seconds. */
  bundle?: boolean;
  /** Context on top of cdk.json's. */
  context?: Record<string, unknown>;
  /** The cloud assembly directory (default: a new temporary one). */
  outdir?: string;
}

export function testApp(options: TestAppOptions = {}): App {
  const cdk = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> };
  const bundling = options.bundle === false ? { 'aws:cdk:bundling-stacks': [] } : {};
  return new App({ outdir: options.outdir, context: { ...cdk.context, ...bundling, ...options.context } });
}

/**
 * The statements a role is granted: its inline policies (what a function's definition grants) and the policy
 * resources attached to it (what other constructs grant later), as the template has them.
 */
export function roleStatements(template: Template, roleLogicalId: string): Record<string, any>[] {
  const role = template.findResources('AWS::IAM::Role')[roleLogicalId];
  const inline = ((role?.Properties?.Policies ?? []) as { PolicyDocument: { Statement: Record<string, any>[] } }[]).flatMap(
    (policy) => policy.PolicyDocument.Statement,
  );
  const attached = Object.values(template.findResources('AWS::IAM::Policy', { Properties: { Roles: Match.arrayWith([{ Ref: roleLogicalId }]) } })).flatMap(
    (policy) => policy.Properties.PolicyDocument.Statement as Record<string, any>[],
  );
  return [...inline, ...attached];
}
