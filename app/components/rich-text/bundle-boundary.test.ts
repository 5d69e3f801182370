import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The editor (Lexical, ~150 kB) loads only in /admin (docs/decisions/0039): public pages never
// import it, and admin pages import it lazily. Checked on the source, so a new import that would
// pull Lexical into a public bundle fails here before it ships.

const APP = path.resolve(import.meta.dirname, "../..");
const RICH_TEXT_DIRS = ["components/rich-text/", "lib/rich-text/"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

interface ImportSite {
  file: string;
  source: string;
  dynamic: boolean;
}

function importsOf(file: string): ImportSite[] {
  const text = readFileSync(file, "utf8");
  const relative = path.relative(APP, file).split(path.sep).join("/");
  const sites: ImportSite[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']/g)) sites.push({ file: relative, source: match[1] ?? match[2], dynamic: false });
  for (const match of text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) sites.push({ file: relative, source: match[1], dynamic: true });
  return sites;
}

const files = sourceFiles(APP);
const sites = files.flatMap(importsOf);
const inRichText = (file: string) => RICH_TEXT_DIRS.some((dir) => file.startsWith(dir));
const isLexical = (source: string) => source === "lexical" || source.startsWith("@lexical/");

describe("the rich text editor stays out of public bundles", () => {
  it("finds the app's sources (the scan itself works)", () => {
    expect(sites.some((site) => site.file === "components/rich-text/rich-text-editor.tsx" && site.source === "@lexical/react/LexicalComposer")).toBe(true);
    expect(sites.some((site) => site.file === "components/rich-text/rich-text-editor.tsx" && site.source === "lexical")).toBe(true); // a multi-line import
    expect(sites.some((site) => site.file === "root.tsx")).toBe(true);
  });

  it("imports Lexical only inside the rich text folders", () => {
    expect(sites.filter((site) => isLexical(site.source) && !inRichText(site.file))).toEqual([]);
  });

  it("lets only admin routes import the editor, and only lazily", () => {
    const editorImports = sites.filter((site) => /components\/rich-text\/rich-text-editor$/.test(site.source) && !inRichText(site.file));
    expect(editorImports.filter((site) => !site.dynamic || !site.file.startsWith("routes/admin/"))).toEqual([]);
  });

  it("keeps the Lexical-based modules of app/lib/rich-text out of browser code", () => {
    // nodes.ts and image-node.ts define Lexical nodes: outside the rich text folders only server
    // modules may import them (and what imports them: from-markdown.server.ts, the HTML import).
    const lexicalModules = /lib\/rich-text\/(nodes|image-node|from-markdown\.server)$/;
    expect(sites.filter((site) => lexicalModules.test(site.source) && !inRichText(site.file) && !/\.server\.tsx?$/.test(site.file))).toEqual([]);
  });

  it("keeps the Markdown import (from-markdown.ts) free of Lexical, the DOM and server modules: the content collections' seeds use it", () => {
    const imports = sites.filter((site) => site.file === "lib/rich-text/from-markdown.ts");
    expect(imports.map((site) => site.source)).toContain("marked"); // the scan sees the file
    expect(sites.some((site) => site.file.startsWith("features/site/content-collections/") && site.source === "~/lib/rich-text/from-markdown")).toBe(true);
    expect(imports.filter((site) => isLexical(site.source) || /jsdom|sanitize-html|\.server$|\/(nodes|image-node)$/.test(site.source))).toEqual([]);
  });
});
