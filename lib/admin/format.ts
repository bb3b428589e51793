/** How the admin command line shows a result: JSON for scripts (`--json`), else lines and aligned tables for people. */

/** Prints `value` as JSON, or the lines made for people. */
export function printResult(json: boolean | undefined, value: unknown, lines: () => string[]): void {
  console.log(json ? JSON.stringify(value, null, 2) : lines().join('\n'));
}

/** Rows as a table of the given columns, aligned, a missing cell shown as `-`. */
export function textTable(rows: Record<string, unknown>[], columns: string[]): string[] {
  if (rows.length === 0) return ['(none)'];
  const cell = (value: unknown) => (value === undefined || value === null ? '-' : Array.isArray(value) ? value.join(',') : String(value));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))];
}
