import path from "node:path";
import { describe, expect, it } from "vitest";
import { getMailConfig, mailSender, parseMailConfig, registerMailSender, staffRecipientsFor } from "./mail-config.server";

describe("parseMailConfig", () => {
  it("defaults to .eml files under DATA_DIR/mail, with no sender or staff inbox of its own", () => {
    expect(parseMailConfig({}, "/srv/forja")).toEqual({
      smtpUrl: undefined,
      from: undefined,
      mailDir: path.join("/srv/forja", "mail"),
      staffRecipients: [],
    });
    expect(parseMailConfig({ SMTP_URL: "", MAIL_FROM: "" }, "/d").smtpUrl).toBeUndefined();
  });

  it("reads SMTP_URL, MAIL_FROM and MAIL_STAFF_TO", () => {
    const config = parseMailConfig(
      { SMTP_URL: "smtps://u:p@smtp.example.com:465", MAIL_FROM: "Forja <no-responder@forja.example>", MAIL_STAFF_TO: "a@forja.example, b@forja.example" },
      "/d",
    );
    expect(config.smtpUrl).toBe("smtps://u:p@smtp.example.com:465");
    expect(config.from).toBe("Forja <no-responder@forja.example>");
    expect(config.staffRecipients).toEqual(["a@forja.example", "b@forja.example"]);
  });

  it("rejects a URL that is not smtp:// or smtps:// and bad staff addresses, naming the variable", () => {
    expect(() => parseMailConfig({ SMTP_URL: "http://mail.example.com" }, "/d")).toThrow(/SMTP_URL: debe empezar con smtp:\/\//);
    expect(() => parseMailConfig({ MAIL_STAFF_TO: "ventas@forja.example, nadie" }, "/d")).toThrow(/MAIL_STAFF_TO/);
  });
});

describe("getMailConfig", () => {
  it("parses the environment again only when it changed, and shares a frozen result meanwhile", () => {
    const saved = process.env.MAIL_STAFF_TO;
    try {
      process.env.MAIL_STAFF_TO = "uno@forja.example";
      const first = getMailConfig();
      expect(first.staffRecipients).toEqual(["uno@forja.example"]);
      expect(getMailConfig()).toBe(first);
      expect(Object.isFrozen(first) && Object.isFrozen(first.staffRecipients)).toBe(true);

      process.env.MAIL_STAFF_TO = "uno@forja.example, dos@forja.example";
      expect(getMailConfig().staffRecipients).toEqual(["uno@forja.example", "dos@forja.example"]);
      // Unset and empty are the same setting, parsed apart: neither keeps the list above.
      process.env.MAIL_STAFF_TO = "";
      expect(getMailConfig().staffRecipients).toEqual([]);
      delete process.env.MAIL_STAFF_TO;
      expect(getMailConfig().staffRecipients).toEqual([]);
      // A bad value still fails loudly on the call that meets it.
      process.env.MAIL_STAFF_TO = "nadie";
      expect(() => getMailConfig()).toThrow(/MAIL_STAFF_TO/);
    } finally {
      if (saved === undefined) delete process.env.MAIL_STAFF_TO;
      else process.env.MAIL_STAFF_TO = saved;
    }
  });
});

describe("the sender and the staff inbox without MAIL_FROM and MAIL_STAFF_TO", () => {
  it("are the business's name and sales address, read at the time of sending (docs/decisions/0047)", async () => {
    let facts = { name: "Forja Diseño y Manufactura, S.A. de C.V.", email: "ventas@ejemplo.mx" };
    registerMailSender(async () => facts);
    const config = parseMailConfig({}, "/d");
    expect(await mailSender(config)).toBe('"Forja Diseño y Manufactura, S.A. de C.V." <ventas@ejemplo.mx>');
    facts = { name: "Taller \"Norte\"", email: "hola@ejemplo.mx" };
    expect(await mailSender(config)).toBe('"Taller Norte" <hola@ejemplo.mx>');
    expect(staffRecipientsFor(facts, config)).toEqual(["hola@ejemplo.mx"]);
  });

  it("give way to MAIL_FROM and MAIL_STAFF_TO when they are set", async () => {
    const config = parseMailConfig({ MAIL_FROM: "Forja <no-responder@forja.example>", MAIL_STAFF_TO: "a@forja.example" }, "/d");
    expect(await mailSender(config)).toBe("Forja <no-responder@forja.example>");
    expect(staffRecipientsFor({ email: "hola@ejemplo.mx" }, config)).toEqual(["a@forja.example"]);
  });
});
