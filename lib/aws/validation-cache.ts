/**
 * CDK's built-in CloudFormation validation (schema and rule checks of every template), done once
 * per template: a template that validated clean is not validated again while it stays the same.
 * Starting the validation engine alone takes seconds, half of a synth whose bundles are reused.
 *
 * A template with any finding is validated on every synth, so its findings are always shown.
 * Registered by bin/urm.ts; as a CloudFormationValidatePlugin it takes the built-in one's place.
 */
import { CloudFormationValidatePlugin, type IPolicyValidationContext, type PolicyValidationPluginReport } from 'aws-cdk-lib';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';

/** Under the cloud assembly: one empty file named by the hash of the templates that validated clean. */
export const validatedDir = '.validated';

const cdkVersion = (createRequire(import.meta.url)('aws-cdk-lib/package.json') as { version: string }).version;

export class CachedCloudFormationValidation extends CloudFormationValidatePlugin {
  override validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const paths = [...context.templatePaths].sort();
    if (paths.length === 0) return super.validate(context);
    const hash = createHash('sha256').update(`aws-cdk-lib ${cdkVersion}`);
    for (const path of paths) hash.update(`\0${basename(path)}\0`).update(readFileSync(path));
    const dir = join(dirname(paths[0]), validatedDir);
    const marker = join(dir, hash.digest('hex'));
    if (existsSync(marker)) return { success: true, violations: [] };

    const report = super.validate(context);
    if (report.success && report.violations.length === 0) {
      // Only the latest clean set is kept: the directory stays one file.
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(marker, '');
    }
    return report;
  }
}
