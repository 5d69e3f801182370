import { createHash } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { asc, count, eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

// A new solicitud end to end, from the route's side (submitSolicitud: body, guard, form parse) through
// createSolicitud, on the real database (PGlite, or PostgreSQL with TEST_DATABASE_URL) with real
// Requests: multipart bodies with real files for /cotiza, urlencoded for /contact. Files land
// under a temporary DATA_DIR; mail is only written to the outbox (no worker runs here).

// getEnv() caches the environment on first read: set DATA_DIR and the mail settings first.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("submit", { set: { MAIL_STAFF_TO: "ventas@forja.test, ingenieria@forja.test" } }));

import { getDb } from "~/db/client.server";
import { outbox } from "~/db/schema/outbox";
import { renderedMail } from "~/services/mail/outbox.server";
import { solicitudEvents, solicitudFiles, solicitudes } from "~/db/schema/solicitudes";
import { counters } from "~/db/schema/numbering";
import { confirmEmail } from "~/features/accounts/email-confirmation.server";
import { MIME_BY_KIND } from "~/services/files/detect-type.server";
import { getFileStore } from "~/services/files/file-store.server";
import { S3Bucket } from "~/services/files/s3-bucket.server";
import { verifyFormToken } from "~/services/security/form-token.server";
import { HONEYPOT_FIELD } from "~/lib/honeypot";
import { nextTestIp, registeredCustomer, requestMeta } from "../../../tests/support/auth-requests";
import { binaryStlFile, pdfFile, pngFile, stepFile, windowsExeFile } from "../../../tests/support/minimal-files";
import {
  agedFormToken,
  contactRequest,
  listFilesRecursive,
  quoteRequest,
  validContactFields,
  validQuoteFields,
  type UploadFile,
} from "../../../tests/support/solicitud-requests";
import { startS3Server } from "../../../tests/support/s3-server";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { buildEstimate } from "./estimate";
import { mexicoCityDay as todayInMexico } from "~/lib/time";
import { NDA_VERSION } from "./forms";
import { issueSolicitudToken, submitSolicitud as submitForm, type SubmitResult } from "~/routes/cotiza/submit-solicitud.server";

useTestFileDatabase(dataDir);

const uploads = path.join(dataDir, "uploads");
const BOT_MESSAGE = "No pudimos procesar el formulario. Si usa un programa que llena formularios automáticamente, desactívelo e intente de nuevo.";
const EXPIRED_MESSAGE = "El formulario caducó por seguridad. Revise sus datos y envíelo de nuevo.";
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const mexicoYear = () => Number(todayInMexico().slice(0, 4));

let emailCounter = 0;
const uniqueEmail = (label: string) => `${label}-${++emailCounter}-${process.pid}@ejemplo.mx`;

/** Files stored for good (the file store: DATA_DIR/uploads minus its temporary folder, or PostgreSQL) and temporary leftovers. */
async function storedFiles(): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of getFileStore().keys()) keys.push(key);
  return keys;
}
const tmpFiles = () => listFilesRecursive(path.join(uploads, ".tmp"));

async function totals() {
  const db = getDb();
  const [[rows], [files], [events], [mails]] = await Promise.all([
    db.select({ n: count() }).from(solicitudes),
    db.select({ n: count() }).from(solicitudFiles),
    db.select({ n: count() }).from(solicitudEvents),
    db.select({ n: count() }).from(outbox),
  ]);
  return { solicitudes: rows!.n, files: files!.n, events: events!.n, outbox: mails!.n, stored: (await storedFiles()).length, tmp: tmpFiles().length };
}

/** Runs `act` and checks that it left the database and the uploads folder exactly as they were. */
async function expectNothingStored(act: () => Promise<SubmitResult>): Promise<Extract<SubmitResult, { ok: false }>> {
  const before = await totals();
  const result = await act();
  expect(result.ok).toBe(false);
  expect(await totals()).toEqual({ ...before, tmp: 0 });
  return result as Extract<SubmitResult, { ok: false }>;
}

function expectOk(result: SubmitResult): Extract<SubmitResult, { ok: true }> {
  if (!result.ok) throw new Error(`Expected success, got ${result.status}: ${JSON.stringify(result.result.error)}`);
  return result;
}

const numberValue = (number: string) => Number(number.split("-")[2]);
const quoteToken = () => agedFormToken("cotiza");
const contactToken = () => agedFormToken("contacto");

async function submitQuote(fields: Record<string, string | string[]>, files: UploadFile[] = [], options: { ip?: string; cookie?: string } = {}) {
  return submitForm(quoteRequest(fields, files, { ip: options.ip ?? nextTestIp(), cookie: options.cookie }), "cotizacion");
}

async function submitContact(fields: Record<string, string | string[]>, options: { ip?: string; cookie?: string } = {}) {
  return submitForm(contactRequest(fields, { ip: options.ip ?? nextTestIp(), cookie: options.cookie }), "contacto");
}

async function solicitudByNumber(number: string) {
  const [row] = await getDb().select().from(solicitudes).where(eq(solicitudes.number, number));
  if (!row) throw new Error(`No solicitud ${number}`);
  return row;
}

const futureDate = () => {
  const date = new Date(Date.now() + 30 * 24 * 60 * 60 * 1000);
  return todayInMexico(date);
};

/** Solicitudes stored from a form with this token: the stored key is token + nonce (or content). */
const withToken = (token: string) => sql`starts_with(${solicitudes.formToken}, ${`${token}:`})`;

describe("submitForm: a quote request that succeeds", () => {
  it("stores the request, its files under DATA_DIR/uploads, the estimate, a 'creado' event and two outbox emails, numbered SOL-YYYY-NNNN", async () => {
    const token = quoteToken();
    const email = uniqueEmail("Ana.Torres");
    const step = stepFile();
    const stl = binaryStlFile();
    const pdf = pdfFile();
    const requiredBy = futureDate();
    const result = expectOk(
      await submitForm(
        quoteRequest(
          validQuoteFields({
            formToken: token,
            email: email.toUpperCase(),
            service: "prototipado-rapido",
            industry: "medica",
            quantity: "2",
            extraQuantities: "10, 50, 10",
            requiredBy,
            material: "Nylon PA12",
            finish: "Natural",
            tolerance: "estrictas",
            threads: "si",
            certificates: ["conformidad", "dimensional"],
            nda: "on",
          }),
          [
            { name: "soporte.step", bytes: step },
            { name: "soporte.stl", bytes: stl, type: "model/stl" },
            { name: "plano soporte.pdf", bytes: pdf, type: "application/pdf" },
          ],
          { ip: "203.0.113.7", userAgent: "Mozilla/5.0 (prueba)" },
        ),
        "cotizacion",
      ),
    );
    expect(result.duplicate).toBe(false);
    expect(result.number).toMatch(new RegExp(`^SOL-${mexicoYear()}-\\d{4}$`));

    const row = await solicitudByNumber(result.number);
    expect(row).toMatchObject({
      id: result.id,
      type: "cotizacion",
      status: "nuevo",
      userId: null,
      name: "Ana Torres",
      company: "Maquinados del Bajío",
      email: email.toLowerCase(),
      phone: "+52 442 123 4567",
      city: "Querétaro, Qro.",
      industry: "medica",
      service: "prototipado-rapido",
      quantity: 2,
      extraQuantities: [10, 50],
      requiredBy,
      material: "Nylon PA12",
      finish: "Natural",
      tolerance: "estrictas",
      threads: true,
      certificates: ["conformidad", "dimensional"],
      ndaVersion: NDA_VERSION,
      // The replay key: the token plus the content (this post sent no nonce), see replayKey.
      formToken: expect.stringMatching(new RegExp(`^${token.replaceAll(".", "\\.")}:c:[0-9a-f]{32}$`)),
      ip: "203.0.113.7",
      userAgent: "Mozilla/5.0 (prueba)",
      readAt: null,
    });
    expect(row.ndaAcceptedAt).toBeInstanceOf(Date);
    expect(row.privacyAcceptedAt).toBeInstanceOf(Date);
    expect(Math.abs(row.createdAt.getTime() - Date.now())).toBeLessThan(60_000);

    // Files: one row each, kind and MIME decided by content, stored under a server-made name.
    const files = await getDb().select().from(solicitudFiles).where(eq(solicitudFiles.solicitudId, row.id)).orderBy(asc(solicitudFiles.originalName));
    // Their sha256 is the geometry job's to take, from the stored bytes, after the answer (0080).
    expect(files.map((file) => [file.originalName, file.kind, file.mimeType, file.size, file.sha256])).toEqual([
      ["plano soporte.pdf", "pdf", MIME_BY_KIND.pdf, pdf.length, null],
      ["soporte.step", "step", MIME_BY_KIND.step, step.length, null],
      ["soporte.stl", "stl", MIME_BY_KIND.stl, stl.length, null],
    ]);
    const sent: Record<string, Uint8Array> = { "plano soporte.pdf": pdf, "soporte.step": step, "soporte.stl": stl };
    const stored = await storedFiles();
    for (const file of files) {
      expect(file.storagePath).toMatch(/^\d{4}\/\d{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(file.storagePath).not.toContain("soporte");
      expect(stored).toContain(file.storagePath);
      expect(sha256((await getFileStore().readBytes(file.storagePath, 1024 * 1024))!)).toBe(sha256(sent[file.originalName]!));
    }
    expect(tmpFiles()).toEqual([]);

    // The STL estimate recomputed on the server: a 10 × 20 × 30 mm box.
    const stlRow = files.find((file) => file.kind === "stl")!;
    expect(row.estimates).toHaveLength(1);
    const [estimate] = row.estimates;
    expect(estimate).toMatchObject({ fileId: stlRow.id, fileName: "soporte.stl", volumeMm3: 6000, bbox: { x: 10, y: 20, z: 30 }, triangles: 12, closed: true });
    expect(estimate!.price).toBeDefined();
    expect(estimate!.price!.service).toBe("prototipado-rapido");
    expect(estimate!.price!.minCentavos).toBeGreaterThan(0);
    expect(estimate!.price!.maxCentavos).toBeGreaterThanOrEqual(estimate!.price!.minCentavos);
    expect(estimate).toEqual(buildEstimate({ fileId: stlRow.id, fileName: "soporte.stl", bytes: stl, service: "prototipado-rapido", quantity: 2 }));

    // History starts with "creado".
    const events = await getDb().select().from(solicitudEvents).where(eq(solicitudEvents.solicitudId, row.id));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: "creado", toStatus: "nuevo", actorName: "Ana Torres" });

    // Two emails in the outbox: the requester's confirmation and the staff notification (several addresses).
    const confirmation = await getDb().select().from(outbox).where(eq(outbox.to, email.toLowerCase()));
    expect(confirmation).toHaveLength(1);
    expect(confirmation[0]).toMatchObject({ status: "pending", subject: `Solicitud de cotización ${result.number} recibida` });
    // Written as content; the worker renders it before sending (0081).
    expect(confirmation[0]).toMatchObject({ html: null, text: null });
    expect(renderedMail(confirmation[0]!).text).toContain(result.number);
    const staff = await getDb().select().from(outbox).where(sql`${outbox.subject} like ${`[${result.number}]%`}`);
    expect(staff).toHaveLength(1);
    expect(staff[0]).toMatchObject({ to: "ventas@forja.test, ingenieria@forja.test", replyTo: email.toLowerCase(), status: "pending" });
    expect(renderedMail(staff[0]!).text).toContain(`/admin/formularios/${row.id}`);
    expect(renderedMail(staff[0]!).text).toContain("soporte.step");
    expect(renderedMail(staff[0]!).html).toContain("soporte.step");
  });

  it("the two e-mails repeat the whole project: quantities, date, material, finish, tolerances, threads and city", async () => {
    const email = uniqueEmail("proyecto");
    const result = expectOk(
      await submitQuote(
        validQuoteFields({
          formToken: quoteToken(),
          email,
          quantity: "1",
          extraQuantities: "100, 1000",
          requiredBy: "2099-12-10",
          material: "Aluminio 6061-T6",
          finish: "Anodizado negro",
          tolerance: "estrictas",
          threads: "si",
        }),
        [{ name: "plano.pdf", bytes: pdfFile(), type: "application/pdf" }],
      ),
    );
    const [confirmation] = (await getDb().select().from(outbox).where(eq(outbox.to, email.toLowerCase()))).map(renderedMail);
    const [staff] = (await getDb().select().from(outbox).where(sql`${outbox.subject} like ${`[${result.number}]%`}`)).map(renderedMail);
    for (const mail of [confirmation!, staff!]) {
      for (const line of [
        "Cantidad: 1 pieza",
        "Cotizar también: 100, 1,000",
        "Fecha requerida: 10 de diciembre de 2099",
        "Material: Aluminio 6061-T6",
        "Acabado: Anodizado negro",
        "Tolerancias: Más estrictas (indicadas en plano PDF)",
        "Roscas: sí",
      ]) {
        expect(mail.text, line).toContain(line);
        expect(mail.html, line).toContain(line);
      }
    }
    expect(staff!.text).toContain("Ana Torres, Maquinados del Bajío (Querétaro, Qro.)");

    // What was not asked is not invented: no material line, no threads line, and "sin fecha indicada".
    const plain = uniqueEmail("sencillo");
    expectOk(await submitQuote(validQuoteFields({ formToken: quoteToken(), email: plain })));
    const [short] = (await getDb().select().from(outbox).where(eq(outbox.to, plain.toLowerCase()))).map(renderedMail);
    expect(short!.text).toContain("Cantidad: 25 piezas");
    expect(short!.text).toContain("Fecha requerida: sin fecha indicada");
    expect(short!.text).toContain("Tolerancias: Estándar (ISO 2768-m)");
    expect(short!.text).not.toMatch(/Material:|Acabado:|Roscas:|Cotizar también:/);
  });

  it("stores a request without files and numbers the next one consecutively", async () => {
    const first = expectOk(await submitQuote(validQuoteFields({ formToken: quoteToken(), email: uniqueEmail("sin-archivos") })));
    const second = expectOk(await submitQuote(validQuoteFields({ formToken: quoteToken(), email: uniqueEmail("sin-archivos") })));
    expect(numberValue(second.number)).toBe(numberValue(first.number) + 1);
    const row = await solicitudByNumber(first.number);
    expect(row.estimates).toEqual([]);
    expect(row.ndaVersion).toBeNull();
    expect(row.ndaAcceptedAt).toBeNull();
    expect(await getDb().select().from(solicitudFiles).where(eq(solicitudFiles.solicitudId, row.id))).toEqual([]);
  });

  it("stores a contact message (urlencoded) as a numbered solicitud of type contacto with its two emails", async () => {
    const email = uniqueEmail("luis");
    const result = expectOk(await submitContact(validContactFields({ formToken: contactToken(), email })));
    expect(result.number).toMatch(new RegExp(`^SOL-${mexicoYear()}-\\d{4}$`));
    const row = await solicitudByNumber(result.number);
    expect(row).toMatchObject({ type: "contacto", name: "Luis Hernández", email, phone: "442 987 6543", subject: "Visita a planta", message: "Quisiera agendar una visita a su planta la próxima semana.", company: null, quantity: null });
    const mails = await getDb().select().from(outbox).where(sql`${outbox.to} = ${email} or ${outbox.replyTo} = ${email}`);
    expect(mails.map((mail) => mail.subject).sort()).toEqual([`Mensaje ${result.number} recibido`, `[${result.number}] Contacto: Luis Hernández`]);
  });
});

describe("submitForm: validation", () => {
  it("answers 400 with every error in Spanish next to its field, keeping what was typed and the token", async () => {
    const token = quoteToken();
    const typed = {
      formToken: token,
      name: "A",
      company: "Taller Ñandú",
      email: "ana-en-ejemplo.mx",
      phone: "12345",
      description: "Pieza corta",
      quantity: "0",
      extraQuantities: "cien",
      requiredBy: "2001-01-01",
      industry: "juguetes",
      tolerance: "iso2768m",
    };
    const result = await expectNothingStored(() => submitQuote(typed, [{ name: "soporte.step", bytes: stepFile() }]));
    expect(result.status).toBe(400);
    expect(result.formToken).toBe(token);
    expect(result.result.error).toEqual({
      name: ["Escriba su nombre completo."],
      email: ["Escriba un correo válido, por ejemplo nombre@empresa.com."],
      phone: ["Escriba un número de 10 dígitos; puede empezar con +52."],
      description: ["Describa su proyecto con al menos 20 caracteres: qué pieza es, para qué sirve y qué necesita."],
      quantity: ["La cantidad debe ser al menos 1."],
      extraQuantities: ["Escriba cantidades enteras separadas por comas, por ejemplo 100, 500, 1000."],
      requiredBy: ["La fecha requerida no puede estar en el pasado."],
      industry: ["Elija una industria de la lista."],
      privacy: ["Para enviar el formulario debe aceptar el aviso de privacidad."],
    });
    expect(result.result.initialValue).toMatchObject({
      name: "A",
      company: "Taller Ñandú",
      email: "ana-en-ejemplo.mx",
      phone: "12345",
      description: "Pieza corta",
      quantity: "0",
      extraQuantities: "cien",
      requiredBy: "2001-01-01",
      industry: "juguetes",
    });
  });

  it("says what is missing when the required fields are empty", async () => {
    const result = await expectNothingStored(() => submitQuote({ formToken: quoteToken(), name: "", email: "", phone: "", description: "", quantity: "" }));
    expect(result.status).toBe(400);
    expect(result.result.error).toMatchObject({
      name: ["Escriba su nombre."],
      email: ["Escriba su correo electrónico."],
      phone: ["Escriba un teléfono o WhatsApp."],
      description: ["Describa su proyecto."],
      quantity: ["Escriba la cantidad de piezas."],
      privacy: ["Para enviar el formulario debe aceptar el aviso de privacidad."],
    });
  });

  it("validates the contact form in Spanish and keeps the values", async () => {
    const token = contactToken();
    const result = await expectNothingStored(() => submitContact({ formToken: token, name: "Luis", email: "luis@", phone: "55", subject: "", message: "Hola" }));
    expect(result.status).toBe(400);
    expect(result.formToken).toBe(token);
    expect(result.result.error).toEqual({
      email: ["Escriba un correo válido, por ejemplo nombre@empresa.com."],
      phone: ["Escriba un número de 10 dígitos; puede empezar con +52."],
      subject: ["Escriba el asunto."],
      message: ["Escriba un mensaje de al menos 10 caracteres."],
      privacy: ["Para enviar el formulario debe aceptar el aviso de privacidad."],
    });
    expect(result.result.initialValue).toMatchObject({ name: "Luis", email: "luis@", phone: "55", message: "Hola" });
  });

  it("rejects a Windows executable renamed .step, naming the file, and stores nothing (no row, no file in uploads or uploads/.tmp)", async () => {
    const result = await expectNothingStored(() =>
      submitQuote(validQuoteFields({ formToken: quoteToken(), email: uniqueEmail("exe") }), [
        { name: "pieza buena.stl", bytes: binaryStlFile() },
        { name: "Soporte final.step", bytes: windowsExeFile() },
      ]),
    );
    expect(result.status).toBe(400);
    expect(result.result.error).toEqual({ files: ["«Soporte final.step» no es un archivo STEP válido: su contenido no corresponde a la extensión."] });
    expect(result.result.initialValue).toMatchObject({ name: "Ana Torres", company: "Maquinados del Bajío", quantity: "25" });
  });

  it("rejects a file with an extension that is not accepted, naming it", async () => {
    const result = await expectNothingStored(() =>
      submitQuote(validQuoteFields({ formToken: quoteToken() }), [{ name: "instalador.exe", bytes: windowsExeFile() }]),
    );
    expect(result.status).toBe(400);
    expect(result.result.error?.files?.[0]).toMatch(/^«instalador\.exe»: formato no aceptado\./);
  });

  it("asks for the PDF drawing when the tolerances are stricter than ISO 2768-m", async () => {
    const result = await expectNothingStored(() =>
      submitQuote(validQuoteFields({ formToken: quoteToken(), tolerance: "estrictas" }), [{ name: "foto.png", bytes: pngFile() }, { name: "soporte.step", bytes: stepFile() }]),
    );
    expect(result.status).toBe(400);
    expect(result.result.error).toEqual({ files: ["Con tolerancias más estrictas que ISO 2768-m, adjunte el plano en PDF con las cotas y tolerancias."] });
    expect(result.result.initialValue).toMatchObject({ tolerance: "estrictas" });
  });

  it("answers 413 for more than 10 files, keeping what was typed, and stores nothing", async () => {
    const files = Array.from({ length: 11 }, (_, index) => ({ name: `pieza-${index + 1}.step`, bytes: stepFile() }));
    const result = await expectNothingStored(() => submitQuote(validQuoteFields({ formToken: quoteToken() }), files));
    expect(result.status).toBe(413);
    expect(result.result.error).toEqual({ "": ["Puede adjuntar hasta 10 archivos."] });
    expect(result.result.initialValue).toMatchObject({ name: "Ana Torres", description: validQuoteFields().description });
  });
});

describe("submitForm: bots and stale forms", () => {
  it("refuses a filled honeypot with 400 and stores nothing, not even the uploaded file", async () => {
    const result = await expectNothingStored(() =>
      submitQuote(validQuoteFields({ formToken: quoteToken(), [HONEYPOT_FIELD]: "https://spam.example" }), [{ name: "soporte.step", bytes: stepFile() }]),
    );
    expect(result.status).toBe(400);
    expect(result.result.error).toEqual({ "": [BOT_MESSAGE] });
  });

  it("refuses a form sent faster than a person can fill it with 400 and stores nothing", async () => {
    const token = issueSolicitudToken("contacto");
    const result = await expectNothingStored(() => submitContact(validContactFields({ formToken: token })));
    expect(result.status).toBe(400);
    expect(result.result.error).toEqual({ "": [BOT_MESSAGE] });
    expect(result.result.initialValue).toMatchObject({ name: "Luis Hernández" });
  });

  it("refuses an expired or forged token with 400 and hands out a new, valid token", async () => {
    const expired = agedFormToken("cotiza", 25 * 60 * 60 * 1000);
    const fresh = quoteToken();
    const forged = `${fresh.slice(0, -4)}AAAA`;
    const wrongForm = contactToken();
    for (const token of [expired, forged, wrongForm]) {
      const result = await expectNothingStored(() => submitQuote(validQuoteFields({ formToken: token }), [{ name: "soporte.step", bytes: stepFile() }]));
      expect(result.status).toBe(400);
      expect(result.result.error).toEqual({ "": [EXPIRED_MESSAGE] });
      expect(result.result.initialValue).toMatchObject({ name: "Ana Torres", email: "ana.torres@ejemplo.mx" });
      expect(result.formToken).not.toBe(token);
      expect(verifyFormToken(result.formToken, "cotiza", Date.now() + 5_000)).toEqual({ ok: true });
    }
  });

  // A post without any token (a bot, or a page saved without it) is refused the same way; the
  // reply must not carry the schema's English default for the hidden formToken field.
  it("refuses a post without a token with Spanish messages only", async () => {
    const result = await expectNothingStored(() => submitContact(validContactFields({ formToken: "" })));
    expect(result.status).toBe(400);
    expect(result.result.error?.[""]).toEqual([EXPIRED_MESSAGE]);
    expect(verifyFormToken(result.formToken, "contacto", Date.now() + 5_000)).toEqual({ ok: true });
    const messages = Object.values(result.result.error ?? {}).flat();
    for (const message of messages) expect(message).not.toMatch(/Invalid input|expected|received/);
  });

  // A bot posting JSON (or a broken body) to /contact gets a 400 like any other refused form, not a
  // 500 from request.formData() throwing.
  it("answers 400 to a /contact post that is not a form, storing nothing", async () => {
    const result = await expectNothingStored(() =>
      submitForm(
        { request: new Request("http://localhost/contact", { method: "POST", body: JSON.stringify(validContactFields({ formToken: contactToken() })), headers: { "content-type": "application/json" } }), ip: nextTestIp() },
        "contacto",
      ),
    );
    expect(result.status).toBe(400);
  });

  it("answers the 6th post from one IP within 10 minutes with 429 and Retry-After, storing nothing", async () => {
    const ip = "198.51.100.66";
    for (let i = 0; i < 5; i += 1) expectOk(await submitContact(validContactFields({ formToken: contactToken(), email: uniqueEmail("limite") }), { ip }));
    const token = contactToken();
    const limited = await expectNothingStored(() => submitContact(validContactFields({ formToken: token, email: uniqueEmail("limite") }), { ip }));
    expect(limited.status).toBe(429);
    expect(limited.result.error?.[""]?.[0]).toMatch(/^Demasiados intentos desde su conexión\. Espere (un minuto|\d+ minutos) e inténtelo de nuevo\.$/);
    const retryAfter = Number(limited.headers?.["Retry-After"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(limited.result.initialValue).toMatchObject({ name: "Luis Hernández" });
    expect(limited.formToken).toBe(token);
    // Another address is not affected.
    expectOk(await submitContact(validContactFields({ formToken: contactToken(), email: uniqueEmail("limite") }), { ip: "198.51.100.67" }));
  });
});

describe("submitForm: double solicitud", () => {
  it("stores the same token once; the second post names the same number", async () => {
    const token = contactToken();
    const email = uniqueEmail("doble");
    const first = expectOk(await submitContact(validContactFields({ formToken: token, email })));
    const before = await totals();
    const second = expectOk(await submitContact(validContactFields({ formToken: token, email })));
    expect(second).toEqual({ ok: true, id: first.id, number: first.number, duplicate: true });
    expect(first.duplicate).toBe(false);
    expect(await totals()).toEqual(before);
    expect(await getDb().select().from(solicitudes).where(withToken(token))).toHaveLength(1);
  });

  it("stores one request when the same form is posted twice at once, keeps only the winner's files and no gap in the numbers", async () => {
    const token = quoteToken();
    const email = uniqueEmail("concurrente");
    const before = await totals();
    const post = () => submitQuote(validQuoteFields({ formToken: token, email }), [{ name: "soporte.step", bytes: stepFile() }]);
    const results = (await Promise.all([post(), post()])).map(expectOk);
    expect(results[0]!.number).toBe(results[1]!.number);
    expect(results[0]!.id).toBe(results[1]!.id);
    expect(results.map((result) => result.duplicate).sort()).toEqual([false, true]);
    expect(await getDb().select().from(solicitudes).where(withToken(token))).toHaveLength(1);
    expect(await totals()).toEqual({ ...before, solicitudes: before.solicitudes + 1, files: before.files + 1, events: before.events + 1, outbox: before.outbox + 2, stored: before.stored + 1 });

    const next = expectOk(await submitContact(validContactFields({ formToken: contactToken(), email: uniqueEmail("despues") })));
    expect(numberValue(next.number)).toBe(numberValue(results[0]!.number) + 1);
  });
});

describe("submitForm: one cached token shared by many visitors (docs/decisions/0031)", () => {
  // A cached /cotiza or /contact gives the same token to everyone in its hour: the replay key is
  // token + the browser's nonce, or token + content when the browser sent no nonce.
  const nonce = () => crypto.randomUUID();

  it("stores a request for each visitor with their own nonce; the same nonce twice names the first", async () => {
    const token = contactToken();
    const [ana, luis] = [nonce(), nonce()];
    const first = expectOk(await submitContact(validContactFields({ formToken: token, formNonce: ana, email: uniqueEmail("ana") })));
    const other = expectOk(await submitContact(validContactFields({ formToken: token, formNonce: luis, email: uniqueEmail("luis") })));
    expect([first.duplicate, other.duplicate]).toEqual([false, false]);
    expect(other.number).not.toBe(first.number);

    const before = await totals();
    // Ana sends her form again, even with something changed: the same form, the same request.
    const again = expectOk(await submitContact(validContactFields({ formToken: token, formNonce: ana, email: uniqueEmail("ana-otra") })));
    expect(again).toEqual({ ok: true, id: first.id, number: first.number, duplicate: true });
    expect(await totals()).toEqual(before);
    expect(await getDb().select().from(solicitudes).where(withToken(token))).toHaveLength(2);
  });

  it("stores one request when one visitor's form is posted twice at once with its nonce", async () => {
    const token = quoteToken();
    const formNonce = nonce();
    const before = await totals();
    const post = () => submitQuote(validQuoteFields({ formToken: token, formNonce, email: uniqueEmail("doble-nonce") }), [{ name: "soporte.step", bytes: stepFile() }]);
    const results = (await Promise.all([post(), post()])).map(expectOk);
    expect(results[0]!.id).toBe(results[1]!.id);
    expect(results.map((result) => result.duplicate).sort()).toEqual([false, true]);
    expect(await totals()).toEqual({ ...before, solicitudes: before.solicitudes + 1, files: before.files + 1, events: before.events + 1, outbox: before.outbox + 2, stored: before.stored + 1 });
  });

  it("without a nonce (no JavaScript): different requests with the same token are all stored, the same one twice is stored once", async () => {
    const token = contactToken();
    const answers = await Promise.all(
      ["marta", "jose", "rosa"].map((name) => submitContact(validContactFields({ formToken: token, email: uniqueEmail(name), name: `Cliente ${name}` }))),
    );
    const stored = answers.map(expectOk);
    expect(new Set(stored.map((result) => result.number)).size).toBe(3);
    expect(stored.every((result) => !result.duplicate)).toBe(true);

    const email = uniqueEmail("sin-js");
    const twice = (await Promise.all([0, 1].map(() => submitContact(validContactFields({ formToken: token, email }))))).map(expectOk);
    expect(twice[0]!.number).toBe(twice[1]!.number);
    expect(await getDb().select().from(solicitudes).where(withToken(token))).toHaveLength(4);
  });

  it("ignores a malformed nonce (the content stands in for it)", async () => {
    const token = contactToken();
    const email = uniqueEmail("nonce-raro");
    const first = expectOk(await submitContact(validContactFields({ formToken: token, formNonce: "x", email })));
    const second = expectOk(await submitContact(validContactFields({ formToken: token, formNonce: "<script>", email })));
    expect(second).toEqual({ ok: true, id: first.id, number: first.number, duplicate: true });
    const [row] = await getDb().select({ key: solicitudes.formToken }).from(solicitudes).where(eq(solicitudes.id, first.id));
    expect(row!.key.startsWith(`${token}:c:`)).toBe(true);
  });

  it("takes the browser's fill time over the token's age: a fresh cached token is fine after 3 s in the form, an old one is not when sent at once", async () => {
    // Rendered into the cache a moment ago, but the form was open 4 s: a person.
    const person = expectOk(await submitContact(validContactFields({ formToken: issueSolicitudToken("contacto"), formNonce: nonce(), formFillMs: "4000", email: uniqueEmail("persona") })));
    expect(person.duplicate).toBe(false);

    const hourOld = agedFormToken("contacto", 60 * 60 * 1000);
    // An hour-old cached token sent half a second after the page became interactive: a bot.
    const bot = await expectNothingStored(() => submitContact(validContactFields({ formToken: hourOld, formNonce: nonce(), formFillMs: "500", email: uniqueEmail("bot") })));
    expect(bot.result.error).toEqual({ "": [BOT_MESSAGE] });
    // Claiming the form was open longer than the page has existed: made up, a bot too.
    const madeUp = await expectNothingStored(() => submitContact(validContactFields({ formToken: issueSolicitudToken("contacto"), formNonce: nonce(), formFillMs: "60000", email: uniqueEmail("inventado") })));
    expect(madeUp.result.error).toEqual({ "": [BOT_MESSAGE] });
    // Without JavaScript there is no fill time: the token's age decides.
    expectOk(await submitContact(validContactFields({ formToken: hourOld, email: uniqueEmail("sin-js-lento") })));
  });
});

describe("submitForm: the same request sent again with a new token", () => {
  // Back after the success page often reloads the form: the browser puts the typed values back, but
  // the page carries a new token. The content, not the token, says it is the same request.
  it("names the number already stored and stores nothing, even when sent again at once", async () => {
    const email = uniqueEmail("regreso");
    const fields = (formToken: string) => validQuoteFields({ formToken, email });
    const files = [{ name: "soporte.step", bytes: stepFile() }];
    const first = expectOk(await submitQuote(fields(quoteToken()), files));
    const before = await totals();

    const again = expectOk(await submitQuote(fields(quoteToken()), files));
    expect(again).toEqual({ ok: true, id: first.id, number: first.number, duplicate: true });
    // Faster than a person fills the form: a person who came Back, so the same number, not the bot message.
    const atOnce = expectOk(await submitQuote(fields(issueSolicitudToken("cotizacion")), files));
    expect(atOnce).toEqual({ ok: true, id: first.id, number: first.number, duplicate: true });
    expect({ ...(await totals()), tmp: 0 }).toEqual({ ...before, tmp: 0 });
  });

  it("stores a new request when anything differs: a value, a file's content; and that fast, a different request is a bot", async () => {
    const email = uniqueEmail("distinto");
    const files = [{ name: "soporte.step", bytes: stepFile() }];
    const revisedStep = new Uint8Array(Buffer.from(Buffer.from(stepFile()).toString("latin1").replace("pieza de prueba", "pieza revisada"), "latin1"));
    const first = expectOk(await submitQuote(validQuoteFields({ formToken: quoteToken(), email }), files));
    const otherQuantity = expectOk(await submitQuote(validQuoteFields({ formToken: quoteToken(), email, quantity: "26" }), files));
    const otherFile = expectOk(await submitQuote(validQuoteFields({ formToken: quoteToken(), email }), [{ name: "soporte.step", bytes: revisedStep }]));
    expect(new Set([first.number, otherQuantity.number, otherFile.number]).size).toBe(3);
    expect([otherQuantity.duplicate, otherFile.duplicate]).toEqual([false, false]);

    const bot = await expectNothingStored(() => submitQuote(validQuoteFields({ formToken: issueSolicitudToken("cotizacion"), email, quantity: "27" }), files));
    expect(bot.result.error).toEqual({ "": [BOT_MESSAGE] });
  });

  it("counts as new after 30 minutes: the same part asked for again later is another request", async () => {
    const email = uniqueEmail("repetido");
    const fields = (formToken: string) => validContactFields({ formToken, email });
    const first = expectOk(await submitContact(fields(contactToken())));
    expect(expectOk(await submitContact(fields(contactToken()))).number).toBe(first.number);
    await getDb().update(solicitudes).set({ createdAt: new Date(Date.now() - 31 * 60 * 1000) }).where(eq(solicitudes.id, first.id));
    const later = expectOk(await submitContact(fields(contactToken())));
    expect(later.duplicate).toBe(false);
    expect(later.number).not.toBe(first.number);
  });
});

describe("submitForm: accounts", () => {
  const PASSWORD = "Fresadora-CNC-42";

  it("links a signed-in customer's request to the account", async () => {
    const email = uniqueEmail("cliente");
    const registered = await registeredCustomer("Carla Ruiz", email, PASSWORD);
    const cookie = registered.cookie;
    expect(cookie).toMatch(/forja\.session_token=/);
    const result = expectOk(await submitQuote(validQuoteFields({ formToken: quoteToken(), email }), [], { cookie }));
    expect((await solicitudByNumber(result.number)).userId).toBe(registered.id);
  });

  it("links an anonymous request when an account with that email confirms its email", async () => {
    const email = uniqueEmail("anonima");
    const anonymous = expectOk(await submitContact(validContactFields({ formToken: contactToken(), email })));
    const other = expectOk(await submitContact(validContactFields({ formToken: contactToken(), email: uniqueEmail("otra") })));
    expect((await solicitudByNumber(anonymous.number)).userId).toBeNull();

    const registered = await registeredCustomer("Marta Gómez", email.toUpperCase(), PASSWORD);
    // Signing up is not enough: the email must be confirmed first.
    expect((await solicitudByNumber(anonymous.number)).userId).toBeNull();

    const [mail] = (await getDb().select().from(outbox).where(sql`${outbox.to} = ${email} and ${outbox.subject} = 'Confirme su correo en Forja'`)).map(renderedMail);
    const token = decodeURIComponent(/\/cuenta\/confirmar\?token=([^\s"'<>&]+)/.exec(mail!.text)![1]!);
    const confirmed = await confirmEmail(requestMeta(`/cuenta/confirmar?token=${encodeURIComponent(token)}`), token);
    expect(confirmed.ok).toBe(true);

    expect((await solicitudByNumber(anonymous.number)).userId).toBe(registered.id);
    expect((await solicitudByNumber(other.number)).userId).toBeNull();
  });
});

describe("submitForm: one unit", () => {
  it("leaves neither a row nor a file when the transaction fails after the files were moved", async () => {
    // A real constraint that refuses this request's 'creado' event: the failure comes after the
    // solicitud and file rows were inserted and the files moved into storage, before the commit.
    await getDb().execute(sql`alter table solicitud_events add constraint forja_test_atomicidad check (actor_name is distinct from 'Prueba Atómica') not valid`);
    try {
      const token = quoteToken();
      const before = await totals();
      const [counter] = await getDb().select().from(counters).where(eq(counters.name, "SOL"));
      await expect(
        submitQuote(validQuoteFields({ formToken: token, name: "Prueba Atómica" }), [
          { name: "soporte.step", bytes: stepFile() },
          { name: "soporte.stl", bytes: binaryStlFile() },
        ]),
      ).rejects.toThrow();
      expect(await totals()).toEqual({ ...before, tmp: 0 });
      expect(await getDb().select().from(solicitudes).where(withToken(token))).toEqual([]);
      expect(await getDb().select().from(counters).where(eq(counters.name, "SOL"))).toEqual([counter]);
    } finally {
      await getDb().execute(sql`alter table solicitud_events drop constraint forja_test_atomicidad`);
    }
    // The same form can be sent again and gets the number that was given back.
    const retry = expectOk(await submitQuote(validQuoteFields({ formToken: quoteToken(), name: "Prueba Atómica" }), [{ name: "soporte.step", bytes: stepFile() }]));
    const [counter] = await getDb().select().from(counters).where(eq(counters.name, "SOL"));
    expect(numberValue(retry.number)).toBe(counter!.value);
  });
});

/** A proxy to an S3 server that holds each PUT until the test lets it through (`nextPut` resolves to that). */
async function holdingS3Proxy(target: string) {
  const arrived: (() => void)[] = [];
  const waiting: ((release: () => void) => void)[] = [];
  const server = http.createServer((request, response) => {
    const forward = () => {
      const headers = { ...request.headers };
      delete headers.expect;
      const upstream = http.request(new URL(request.url ?? "/", target), { method: request.method, headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      upstream.on("error", () => response.destroy());
      request.pipe(upstream);
    };
    if (request.method !== "PUT") return forward();
    const claim = waiting.shift();
    if (claim) claim(forward);
    else arrived.push(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    nextPut: () => new Promise<() => void>((resolve) => (arrived.length ? resolve(arrived.shift()!) : waiting.push(resolve))),
    stop: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

describe("submitForm: files in S3", () => {
  it("puts the files in the bucket before the transaction opens: the database answers others while the bucket receives them", async () => {
    const s3 = await startS3Server({ buckets: ["forja-solicitudes"] });
    const proxy = await holdingS3Proxy(s3.endpoint);
    for (const [name, value] of Object.entries(s3.env())) vi.stubEnv(name, value);
    vi.stubEnv("S3_ENDPOINT", proxy.endpoint);
    let timer: NodeJS.Timeout | undefined;
    try {
      const sent = submitQuote(validQuoteFields({ formToken: quoteToken() }), [{ name: "soporte.step", bytes: stepFile() }]);
      const letThrough = await proxy.nextPut();
      // On PGlite a query waits for a transaction in progress: with the upload inside the
      // transaction, this read would wait for the bucket, which waits for this test.
      const read = await Promise.race([
        getDb().select({ n: count() }).from(solicitudes).then(() => "answered" as const),
        new Promise<"waited">((resolve) => (timer = setTimeout(() => resolve("waited"), 5_000))),
      ]);
      letThrough();
      expect(read).toBe("answered");
      const created = expectOk(await sent);
      const [file] = await getDb().select().from(solicitudFiles).where(eq(solicitudFiles.solicitudId, created.id));
      const stored = await new S3Bucket(s3.config("forja-solicitudes"), "files/").readBytes(file!.storagePath, 1024 * 1024);
      expect(stored && sha256(stored)).toBe(sha256(stepFile()));
    } finally {
      clearTimeout(timer);
      vi.unstubAllEnvs();
      await proxy.stop();
      await s3.stop();
    }
  }, 60_000);
});
