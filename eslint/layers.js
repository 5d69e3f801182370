// forja/layers: the floor plan of app/ as a lint rule (docs/decisions/0013).
//
//   routes → features → services → db, lib
//
// - Nothing imports from routes/ (route modules may share helper files among themselves).
// - A feature imports its own files freely and another feature only through its public module,
//   `~/features/<name>/index.server`. Feature components never import the database.
// - Services never import a feature; db/ and lib/ import nothing above them.
// - Shared components (app/components) import no feature and no database.
// - The start-up (server/, app/hooks.server.ts) reaches features through their public modules.
// Tests may reach into any module: they assemble real parts to check them.
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const APP = path.join(ROOT, "app");

/** Where a file sits in the floor plan: { layer, name, rest }, or null outside it. */
export function locate(file) {
  const relative = path.relative(ROOT, file).split(path.sep).join("/");
  if (relative.startsWith("server/")) return { layer: "server", name: "", rest: relative.slice(7) };
  if (!relative.startsWith("app/")) return null;
  const parts = relative.slice(4).split("/");
  const [top] = parts;
  if (top === "features" || top === "services") return { layer: top === "features" ? "feature" : "service", name: parts[1] ?? "", rest: parts.slice(2).join("/") };
  if (top === "routes") return { layer: "routes", name: "", rest: parts.slice(1).join("/") };
  if (top === "components") return { layer: "components", name: parts[1] ?? "", rest: parts.slice(2).join("/") };
  if (top === "lib") return { layer: "lib", name: "", rest: parts.slice(1).join("/") };
  if (top === "db") return { layer: "db", name: "", rest: parts.slice(1).join("/") };
  return { layer: "app", name: "", rest: parts.join("/") };
}

function resolveSource(source, fromFile) {
  if (source.startsWith("~/")) return path.join(APP, source.slice(2));
  if (source.startsWith("./") || source.startsWith("../")) return path.resolve(path.dirname(fromFile), source);
  return null; // a package
}

const isTestFile = (file) => /\.(test|spec)\.[cm]?[jt]sx?$/.test(file) || file.includes(`${path.sep}tests${path.sep}`);
const isPublicModule = (target) => /^index\.server(\.[cm]?[jt]sx?)?$/.test(target.rest);

/** Why `from` may not import `target`, or null when the arrow is allowed. */
export function forbiddenReason(from, target) {
  if (target.layer === "routes") {
    return from.layer === "routes" ? null : "Nothing imports from app/routes: routes sit on top of the floor plan.";
  }
  switch (from.layer) {
    case "lib":
      return target.layer === "lib" ? null : "app/lib is cross-cutting: it imports only other lib modules and packages.";
    case "db":
      return target.layer === "db" || target.layer === "lib" ? null : "app/db imports only db and lib.";
    case "service":
      if (target.layer === "feature") return "Services never import a feature; emit an event (services/events) or let the feature call the service.";
      return ["service", "db", "lib"].includes(target.layer) ? null : `Services import only services, db and lib (not ${target.layer}).`;
    case "components":
      if (target.layer === "feature") return "Shared components import no feature: take the feature's piece as a prop from the route.";
      if (target.layer === "db") return "Shared components never import the database.";
      return ["components", "lib", "service"].includes(target.layer) ? null : `Shared components import only components, services and lib (not ${target.layer}).`;
    case "feature": {
      if (target.layer === "feature" && target.name !== from.name && !isPublicModule(target)) {
        return `A feature uses another only through its public module: import "~/features/${target.name}/index.server", not its internals.`;
      }
      if (target.layer === "db" && from.rest.startsWith("components/")) return "Feature components never import the database; take the data as props and types from the feature's browser-safe modules.";
      if (target.layer === "app" || target.layer === "server") return "Features do not import the start-up wiring.";
      return null;
    }
    case "server":
    case "app":
      if (target.layer === "feature" && !isPublicModule(target) && !from.rest.match(/^(root|entry\.(client|server))\.tsx?$/)) {
        return `The start-up reaches a feature through its public module: "~/features/${target.name}/index.server".`;
      }
      return null;
    default:
      return null;
  }
}

const rule = {
  meta: {
    type: "problem",
    docs: { description: "Keeps imports flowing one way: routes → features → services → db, lib (docs/decisions/0013)." },
    schema: [],
    messages: { forbidden: "{{reason}} ({{source}})" },
  },
  create(context) {
    const file = context.filename;
    const from = locate(file);
    if (!from || isTestFile(file)) return {};
    const check = (node, sourceNode) => {
      if (!sourceNode || typeof sourceNode.value !== "string") return;
      const resolved = resolveSource(sourceNode.value, file);
      if (!resolved) return;
      const target = locate(resolved);
      if (!target) return;
      const reason = forbiddenReason(from, target);
      if (reason) context.report({ node: sourceNode, messageId: "forbidden", data: { reason, source: sourceNode.value } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source.type === "Literal" ? node.source : null),
    };
  },
};

export default { meta: { name: "forja" }, rules: { layers: rule } };
