// The full schema, handed to drizzle so relational queries know every table.
export * from "./auth";
export * from "./outbox";
export * from "./pages";
export * from "./submissions";
export * from "./quotes";
export * from "./catalogue";
