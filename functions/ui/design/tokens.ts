/**
 * The design tokens of every page urm shows: the console, the affiliate
 * portal and the player's pages. One source: the stylesheet turns them into
 * CSS custom properties (`--urm-…`), and the charts, which draw on canvas or
 * SVG, read the same values here. A light theme; colours meet WCAG AA (4.5:1)
 * for text on their backgrounds.
 */

export const colors = {
  ink: '#172033',
  inkSoft: '#3d4760',
  muted: '#5a6479',
  line: '#dde2ec',
  lineStrong: '#b9c1d1',
  canvas: '#f4f6fa',
  surface: '#ffffff',
  surfaceSunken: '#eef1f7',
  accent: '#2f4fd0',
  accentStrong: '#2440b0',
  accentSoft: '#e8edfc',
  onAccent: '#ffffff',
  success: '#15653b',
  successSoft: '#e4f4ea',
  warning: '#8a4b00',
  warningSoft: '#fdf1dc',
  danger: '#b3261e',
  dangerSoft: '#fdeceb',
  info: '#1f4f8f',
  infoSoft: '#e6f0fb',
  focus: '#f5b400',
  sidebar: '#141b2d',
  sidebarInk: '#c9d1e3',
  sidebarActive: '#2a3552',
} as const;

/** The series colours of every chart, in order: distinct for the common colour blindnesses (Okabe–Ito based). */
export const seriesColors = ['#2f4fd0', '#0f8a7e', '#d06a0c', '#a23b8f', '#5a6479'] as const;

/** A 4 px grid. */
export const space = { 1: '0.25rem', 2: '0.5rem', 3: '0.75rem', 4: '1rem', 5: '1.25rem', 6: '1.5rem', 8: '2rem', 10: '2.5rem' } as const;

/** Type scale, from small print to a page title. */
export const fontSize = { xs: '0.75rem', sm: '0.8125rem', md: '0.875rem', base: '1rem', lg: '1.125rem', xl: '1.375rem', xxl: '1.75rem' } as const;

export const radius = { sm: '4px', md: '6px', lg: '10px', pill: '999px' } as const;

export const font = {
  sans: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  mono: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
} as const;

/** Where the layouts change: a phone below `md`, the sidebar beside the page from `lg`. */
export const breakpoints = { sm: '30rem', md: '48rem', lg: '62rem' } as const;

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** The tokens as custom properties on :root. */
export function tokensCss(): string {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(colors)) lines.push(`--urm-${kebab(name)}: ${value};`);
  seriesColors.forEach((value, index) => {
    lines.push(`--urm-series-${index + 1}: ${value};`);
  });
  for (const [name, value] of Object.entries(space)) lines.push(`--urm-space-${name}: ${value};`);
  for (const [name, value] of Object.entries(fontSize)) lines.push(`--urm-text-${name}: ${value};`);
  for (const [name, value] of Object.entries(radius)) lines.push(`--urm-radius-${name}: ${value};`);
  lines.push(`--urm-font-sans: ${font.sans};`, `--urm-font-mono: ${font.mono};`);
  lines.push('--urm-shadow-sm: 0 1px 2px rgb(23 32 51 / 6%);', '--urm-shadow-md: 0 4px 16px rgb(23 32 51 / 12%);');
  return `:root {\n  color-scheme: light;\n  ${lines.join('\n  ')}\n}\n`;
}
