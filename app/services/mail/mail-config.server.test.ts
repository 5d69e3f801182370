import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseMailConfig } from "./mail-config.server";

describe("parseMailConfig", () => {
  it("defaults to .eml files under DATA_DIR/mail, the brand sender and the sales inbox", () => {
    expect(parseMailConfig({}, "/srv/forja")).toEqual({
      smtpUrl: undefined,
      from: "Forja Diseño y Manufactura <ventas@forja.example>",
      mailDir: path.join("/srv/forja", "mail"),
      staffRecipients: ["ventas@forja.example"],
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
