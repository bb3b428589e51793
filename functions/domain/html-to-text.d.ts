// html-to-text ships no types and @types/html-to-text describes version 9: the part of version 10 templates.ts uses.
declare module 'html-to-text' {
  interface SelectorDefinition {
    selector: string;
    format?: string;
    options?: Record<string, unknown>;
  }
  interface HtmlToTextOptions {
    wordwrap?: number | false | null;
    selectors?: SelectorDefinition[];
    limits?: { ellipsis?: string; maxBaseElements?: number; maxChildNodes?: number; maxDepth?: number; maxInputLength?: number };
  }
  export function convert(html: string, options?: HtmlToTextOptions): string;
}
