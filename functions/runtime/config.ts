/**
 * The environment, read once at cold start. A function composes its adapters
 * at module scope with these, so a missing variable fails the cold start with
 * its name instead of failing some request later.
 */
export function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(`Missing environment variable ${name}`);
  }
  return value;
}

export function optionalEnv(name: string, fallback: string): string {
  const value = process.env[name];
  return value === undefined || value === '' ? fallback : value;
}
