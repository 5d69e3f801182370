import { describe, expect, it } from "vitest";
import { contactSchema, quoteRequestSchema, solicitudActionSchema } from "./forms";

describe("the solicitud forms' schemas", () => {
  it("are built once, on first use, and then shared", () => {
    for (const schema of [quoteRequestSchema, contactSchema, solicitudActionSchema]) expect(schema()).toBe(schema());
  });

  it("keep their Spanish messages", () => {
    const contact = contactSchema().safeParse({ name: "A", email: "no-es-correo", subject: "Hola", message: "corto", formToken: "t" });
    expect(contact.success).toBe(false);
    const messages = contact.error!.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        "name: Escriba su nombre completo.",
        "email: Escriba un correo válido, por ejemplo nombre@empresa.com.",
        "message: Escriba un mensaje de al menos 10 caracteres.",
        "privacy: Para enviar el formulario debe aceptar el aviso de privacidad.",
      ]),
    );
    expect(solicitudActionSchema().safeParse({ intent: "borrar" }).error?.issues[0]?.message).toBe("No reconocimos esa acción. Recargue la página e inténtelo de nuevo.");
  });
});
