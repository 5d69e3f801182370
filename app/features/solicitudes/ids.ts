import { z } from "~/lib/zod";

// Solicitud and file ids are UUIDs; anything else in a URL is refused before it reaches a query.

const UuidSchema = z.uuid();

export function isSolicitudId(value: string | undefined): value is string {
  return UuidSchema.safeParse(value).success;
}
