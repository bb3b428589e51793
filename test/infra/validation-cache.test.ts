import { afterEach, beforeEach, describe, expect, jest, test } from '@jest/globals';
import { CloudFormationValidatePlugin, type IPolicyValidationContext } from 'aws-cdk-lib';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CachedCloudFormationValidation } from '../../lib/aws/validation-cache';

let assembly: string;
beforeEach(() => {
  assembly = mkdtempSync(join(tmpdir(), 'urm-validation-'));
});
afterEach(() => rmSync(assembly, { recursive: true, force: true }));

describe('the CloudFormation validation of `cdk synth`', () => {
  let engine: jest.SpiedFunction<CloudFormationValidatePlugin['validate']>;
  let template: string;
  // The plugin reads only the template paths.
  const context = () => ({ templatePaths: [template] }) as unknown as IPolicyValidationContext;
  const clean = { success: true, violations: [] };

  beforeEach(() => {
    template = join(assembly, 'Urm.template.json');
    writeFileSync(template, '{"Resources":{}}');
    engine = jest.spyOn(CloudFormationValidatePlugin.prototype, 'validate').mockReturnValue(clean);
  });
  afterEach(() => engine.mockRestore());

  test('does not validate again a template that validated clean', () => {
    const plugin = new CachedCloudFormationValidation();
    plugin.validate(context());
    expect(plugin.validate(context())).toEqual(clean);
    expect(engine).toHaveBeenCalledTimes(1);
  });

  test('validates a changed template again', () => {
    const plugin = new CachedCloudFormationValidation();
    plugin.validate(context());
    writeFileSync(template, '{"Resources":{"Queue":{"Type":"AWS::SQS::Queue"}}}');
    plugin.validate(context());
    expect(engine).toHaveBeenCalledTimes(2);
  });

  test('validates a template with findings every time, so they are always shown', () => {
    const finding = { success: true, violations: [{ ruleName: 'W1', description: 'a warning', violatingResources: [] }] };
    engine.mockReturnValue(finding);
    const plugin = new CachedCloudFormationValidation();
    plugin.validate(context());
    expect(plugin.validate(context())).toEqual(finding);
    expect(engine).toHaveBeenCalledTimes(2);
  });
});
