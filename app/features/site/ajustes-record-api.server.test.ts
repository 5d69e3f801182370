import { describe, expect, it, vi } from "vitest";

// Who reads `ajustes` through the record API (issue 16 §4–5, docs/decisions/0047): admins only.
// Every other staff role gets PocketBase's 403, as a guest does, not an empty list that would
// look like "no settings"; real accounts and roles on the test database.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("ajustes-record-api"));

import { signedInStaff } from "../../../tests/support/auth-requests";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { seedContent } from "~/services/content/seed.server";
import { RECORD_API_MESSAGES, listRecords, viewRecord } from "~/services/records/records.server";
import { recordCollections } from "~/services/records/registry.server";
import { setStaffRole } from "~/features/accounts/staff-members.server";
import type { StaffRole } from "~/features/accounts/staff-roles";
import { singleton } from "~/services/content/published.server";
import { ajustes } from "./content-collections/ajustes";

const ids = {} as Record<StaffRole, string>;
let recordId = "";

useTestFileDatabase(dataDir, async () => {
  await seedContent();
  recordId = (await singleton(ajustes))!.id;
  const admin = await signedInStaff(`admin-ajustes-${process.pid}@forja.mx`, "Ajustes-Admin-Forja-1", "Admin Ajustes");
  ids.admin = admin.user.id;
  for (const role of ["editor", "ventas"] as const) {
    const created = await signedInStaff(`${role}-ajustes-${process.pid}@forja.mx`, "Ajustes-Personal-Forja-1", `Persona ${role}`);
    expect((await setStaffRole({ actor: admin.user, userId: created.user.id, role })).ok).toBe(true);
    ids[role] = created.user.id;
  }
});

const staff = (role: StaffRole) => ({ collection: "_superusers" as const, id: ids[role] });
const refused = { ok: false, kind: "forbidden", message: RECORD_API_MESSAGES.superusersOnly };

describe("the ajustes record through the record API", () => {
  it("is the admin's: listed and viewed", async () => {
    const list = await listRecords(recordCollections(), "ajustes", new URLSearchParams(), staff("admin"));
    expect(list.ok && list.value.items.map((item) => item.id)).toEqual([recordId]);
    const view = await viewRecord(recordCollections(), "ajustes", recordId, new URLSearchParams(), staff("admin"));
    expect(view.ok && view.value.telefono).toBeTruthy();
  });

  it("answers an editor, sales staff and a guest with PocketBase's 403", async () => {
    for (const auth of [staff("editor"), staff("ventas"), null]) {
      expect(await listRecords(recordCollections(), "ajustes", new URLSearchParams(), auth)).toMatchObject(refused);
      expect(await viewRecord(recordCollections(), "ajustes", recordId, new URLSearchParams(), auth)).toMatchObject(refused);
    }
  });
});
