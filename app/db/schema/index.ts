// The full schema, handed to drizzle so relational queries know every table.
export * from "./pages";
