// The full schema, handed to drizzle so relational queries know every table. One file per group.
export * from "./auth";
export * from "./security";
export * from "./numbering";
export * from "./outbox";
export * from "./pages";
export * from "./solicitudes";
export * from "./quotes";
export * from "./catalogue";
export * from "./orders";
export * from "./realtime";
export * from "./files";
export * from "./content";
export * from "./operations";
export * from "./settings";
