/**
 * `#schema-validators` while the build looks for a bundle's schemas
 * (precompiled-validators.ts): each schema a module declares a validator for
 * is recorded, nothing is compiled, and no validator may run.
 */
const recorded: object[] = [];

const notAtBuild = () => {
  throw new Error('a validator ran while its module was only being read for its schemas');
};

export function schemaValidators(schema: object) {
  recorded.push(schema);
  return { fast: notAtBuild, full: notAtBuild };
}

export const recordedSchemas = (): object[] => recorded;
