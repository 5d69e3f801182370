// jsdom ships without types and @types/jsdom is not installed: the part the HTML import and the
// tests use.
declare module "jsdom" {
  export class JSDOM {
    constructor(html?: string, options?: Record<string, unknown>);
    readonly window: Window & typeof globalThis;
  }
}
