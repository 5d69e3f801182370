import type { RecordFieldType } from "~/db/record-filter.server";
import type { RecordCollection } from "./collection.server";

// PocketBase's collections API, read-only (issue 17 §3; docs/decisions/0056): the schema of every
// collection the record API serves, in PocketBase's collection model, so its admin tools and the
// SDK's `pb.collections` can read them. Forja's collections are its domain, written in code: their
// fields come from each collection's allow-list, and their rules, being code and not filter
// expressions, are short descriptions. Creating, changing, importing or truncating is refused.

type RuleName = "listRule" | "viewRule" | "createRule" | "updateRule" | "deleteRule";
export type CollectionRules = Readonly<Record<RuleName, string | null>>;

const STAFF = "personal con el rol que usa el área";

/**
 * What each collection's rules say, in words (null: superusers only, as in PocketBase). A
 * collection missing here is described from what it allows (`describedRules`).
 */
const RULES: Readonly<Record<string, CollectionRules>> = {
  productos: {
    listRule: `Cualquiera ve los productos publicados; ${STAFF} (productos) ve todos.`,
    viewRule: `Cualquiera ve un producto publicado; ${STAFF} (productos) ve todos.`,
    createRule: `Solo ${STAFF} (productos).`,
    updateRule: `Solo ${STAFF} (productos).`,
    deleteRule: `Solo ${STAFF} (productos).`,
  },
  solicitudes: {
    listRule: `El cliente ve las solicitudes enviadas con su correo confirmado; ${STAFF} (solicitudes) ve todas.`,
    viewRule: `El cliente ve las solicitudes enviadas con su correo confirmado; ${STAFF} (solicitudes) ve todas.`,
    createRule: "Cualquiera, con los mismos datos y archivos que el formulario de /cotiza.",
    updateRule: `Solo ${STAFF} (solicitudes): estado y notas internas.`,
    deleteRule: null,
  },
  cotizaciones: {
    listRule: `El cliente ve sus cotizaciones enviadas; ${STAFF} (cotizaciones) ve todas.`,
    viewRule: `El cliente ve sus cotizaciones enviadas; ${STAFF} (cotizaciones) ve todas.`,
    createRule: `Solo ${STAFF} (cotizaciones).`,
    updateRule: `El cliente acepta o rechaza la suya mientras está vigente; ${STAFF} (cotizaciones) la edita.`,
    deleteRule: null,
  },
  mensajes: {
    listRule: `El cliente ve los mensajes de sus cotizaciones; ${STAFF} (cotizaciones) ve todos.`,
    viewRule: `El cliente ve los mensajes de sus cotizaciones; ${STAFF} (cotizaciones) ve todos.`,
    createRule: `El cliente escribe en sus cotizaciones; ${STAFF} (cotizaciones) en cualquiera.`,
    updateRule: null,
    deleteRule: null,
  },
  pedidos: {
    listRule: `El cliente ve sus pedidos; ${STAFF} (pedidos) ve todos.`,
    viewRule: `El cliente ve sus pedidos; ${STAFF} (pedidos) ve todos.`,
    createRule: "Cualquiera, con los mismos datos que /checkout; los precios los pone el servidor.",
    updateRule: `Solo ${STAFF} (pedidos): el estado, por los pasos permitidos.`,
    deleteRule: null,
  },
  users: {
    listRule: `Cada cliente se ve a sí mismo; ${STAFF} (clientes) ve a todos.`,
    viewRule: `Cada cliente se ve a sí mismo; ${STAFF} (clientes) ve a todos.`,
    createRule: "Cualquiera (registro).",
    updateRule: "Cada cliente cambia su propio nombre.",
    deleteRule: null,
  },
  _superusers: { listRule: null, viewRule: null, createRule: null, updateRule: null, deleteRule: null },
  ajustes: {
    listRule: "Solo personal con el rol admin.",
    viewRule: "Solo personal con el rol admin.",
    createRule: null,
    updateRule: "Solo personal con el rol admin.",
    deleteRule: null,
  },
  medios: {
    listRule: "Cualquiera.",
    viewRule: "Cualquiera.",
    createRule: `Solo ${STAFF} (contenido), desde /admin/medios.`,
    updateRule: `Solo ${STAFF} (contenido), desde /admin/medios.`,
    deleteRule: `Solo ${STAFF} (contenido), desde /admin/medios.`,
  },
};

/** The rules of a content collection (and any other not in RULES), from what the collection allows. */
function describedRules(collection: RecordCollection): CollectionRules {
  if (collection.superusersOnly) return RULES._superusers!;
  const write = (allowed: unknown) => (allowed ? `Solo ${STAFF} (contenido); sin ?draft=true, publica.` : null);
  return {
    listRule: `Cualquiera ve lo publicado; ${STAFF} (contenido) lee el borrador con ?draft=true.`,
    viewRule: `Cualquiera ve lo publicado; ${STAFF} (contenido) lee el borrador con ?draft=true.`,
    createRule: write(collection.create),
    updateRule: write(collection.update),
    deleteRule: write(collection.remove),
  };
}

const AUTH_COLLECTIONS = new Set(["users", "_superusers"]);
const AUTO_DATES = new Set(["created", "updated"]);

const FIELD_TYPE: Readonly<Record<RecordFieldType, string>> = {
  text: "text",
  number: "number",
  bool: "bool",
  date: "date",
  "json-array": "json",
};

export interface CollectionField {
  id: string;
  name: string;
  type: string;
  system: boolean;
  hidden: boolean;
  presentable: boolean;
  required?: boolean;
  primaryKey?: boolean;
  onCreate?: boolean;
  onUpdate?: boolean;
  collectionId?: string;
  maxSelect?: number;
}

export interface CollectionModel extends CollectionRules {
  id: string;
  name: string;
  type: "base" | "auth" | "view";
  system: boolean;
  fields: CollectionField[];
  indexes: string[];
  created: string;
  updated: string;
}

/** When Forja's collections took their current shape: PocketBase's `created`/`updated` need a date. */
const SCHEMA_DATE = "2026-01-01 00:00:00.000Z";

function fieldOf(collection: RecordCollection, name: string, type: RecordFieldType, byName: ReadonlyMap<string, RecordCollection>): CollectionField {
  const base = { id: `${collection.id}_${name}`, name, system: name === "id" || AUTO_DATES.has(name), hidden: false, presentable: false };
  if (name === "id") return { ...base, type: "text", required: true, primaryKey: true };
  if (AUTO_DATES.has(name)) return { ...base, type: "autodate", onCreate: true, onUpdate: name === "updated" };
  const target = collection.relations?.[name];
  if (target) return { ...base, type: "relation", collectionId: byName.get(target)?.id ?? target, maxSelect: type === "json-array" ? 999 : 1 };
  return { ...base, type: FIELD_TYPE[type] };
}

/** A collection in PocketBase's model. */
export function collectionModel(collection: RecordCollection, all: readonly RecordCollection[]): CollectionModel {
  const byName = new Map(all.map((other) => [other.name, other]));
  return {
    id: collection.id,
    name: collection.name,
    type: AUTH_COLLECTIONS.has(collection.name) ? "auth" : "base",
    system: collection.name === "_superusers",
    fields: Object.entries(collection.fields).map(([name, field]) => fieldOf(collection, name, field.type, byName)),
    indexes: [],
    ...(RULES[collection.name] ?? describedRules(collection)),
    created: SCHEMA_DATE,
    updated: SCHEMA_DATE,
  };
}

/** A collection by id or name (PocketBase's `{collectionIdOrName}`), or undefined. */
export function findCollection(all: readonly RecordCollection[], idOrName: string): RecordCollection | undefined {
  return all.find((collection) => collection.id === idOrName) ?? all.find((collection) => collection.name === idOrName);
}

/** PocketBase's default fields for a new collection of each type (`/api/collections/meta/scaffolds`). */
export function collectionScaffolds(): Record<"base" | "auth" | "view", CollectionModel> {
  const id: CollectionField = { id: "text3208210256", name: "id", type: "text", system: true, hidden: false, presentable: false, required: true, primaryKey: true };
  const created: CollectionField = { id: "autodate2990389176", name: "created", type: "autodate", system: false, hidden: false, presentable: false, onCreate: true, onUpdate: false };
  const updated: CollectionField = { id: "autodate3332085495", name: "updated", type: "autodate", system: false, hidden: false, presentable: false, onCreate: true, onUpdate: true };
  const empty = { id: "", name: "", system: false, indexes: [] as string[], created: "", updated: "", listRule: null, viewRule: null, createRule: null, updateRule: null, deleteRule: null };
  const authFields: CollectionField[] = [
    id,
    { id: "password901924565", name: "password", type: "password", system: true, hidden: true, presentable: false, required: true },
    { id: "text2504183744", name: "tokenKey", type: "text", system: true, hidden: true, presentable: false, required: true },
    { id: "email3885137012", name: "email", type: "email", system: true, hidden: false, presentable: false, required: true },
    { id: "bool1547992806", name: "emailVisibility", type: "bool", system: true, hidden: false, presentable: false },
    { id: "bool256245529", name: "verified", type: "bool", system: true, hidden: false, presentable: false },
    created,
    updated,
  ];
  return {
    base: { ...empty, type: "base", fields: [id, created, updated] },
    auth: { ...empty, type: "auth", fields: authFields },
    view: { ...empty, type: "view", fields: [] },
  };
}
