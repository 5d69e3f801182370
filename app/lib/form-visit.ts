import { useEffect, useState } from "react";

// The browser's part of a public form on a cached page (docs/decisions/0031-cached-forms.md). The
// page's signed token is the same for everyone who loads it within the cache window, so the
// browser adds what only it knows: a nonce of its own for this form (kept in sessionStorage, so a
// reload or a resend of the same form reuses it) and, when the form is sent, how long the form
// was open. Without JavaScript neither is sent and the server falls back (see the record).

/** Hidden field with the visitor's nonce for this form (the server reads it in form-token.server). */
export const FORM_NONCE_FIELD = "formNonce";
/** Added to the form's data when it is sent: milliseconds since the form became interactive. */
export const FORM_FILL_FIELD = "formFillMs";

const STORAGE_PREFIX = "forja:formulario:";

function storageKey(formId: string, token: string): string {
  return `${STORAGE_PREFIX}${formId}:${token}`;
}

function newNonce(): string {
  // randomUUID needs a secure context; a site reached over plain http on a LAN address has none.
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function readStorage(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null; // storage disabled: the nonce lives as long as the page
  }
}

function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // storage disabled or full: nothing to keep
  }
}

/**
 * The nonce for the form with this id and token ("" until hydration, so the server HTML and the
 * first client render agree), and the fill time added to every FormData built from the form. Once
 * the form was sent and goes away (the confirmation page), its nonce is forgotten: the next form
 * in this tab is a new request, even with the same cached token.
 */
export function useFormVisit(formId: string, token: string): string {
  const [nonce, setNonce] = useState("");
  useEffect(() => {
    const shownAt = Date.now();
    const key = storageKey(formId, token);
    const current = readStorage(key) ?? newNonce();
    writeStorage(key, current);
    setNonce(current);
    let sent = false;
    const form = document.getElementById(formId);
    // `formdata` fires for every FormData built from the form: the framework's submit and ours.
    const onFormData = (event: FormDataEvent) => {
      event.formData.set(FORM_NONCE_FIELD, current);
      event.formData.set(FORM_FILL_FIELD, String(Math.max(0, Date.now() - shownAt)));
    };
    const onSubmit = () => {
      sent = true;
    };
    form?.addEventListener("formdata", onFormData);
    form?.addEventListener("submit", onSubmit);
    return () => {
      form?.removeEventListener("formdata", onFormData);
      form?.removeEventListener("submit", onSubmit);
      if (sent) writeStorage(key, null);
    };
  }, [formId, token]);
  return nonce;
}

/** Values a form may fill in for the visitor, by field name; a missing value fills nothing. */
export type FieldFill = Record<string, string | undefined>;

/**
 * Fills the form's named text fields that are still empty once `values` are known (a signed-in
 * customer's details, learned after hydration on a cached page): what the visitor already wrote is
 * never replaced, and nothing moves because the fields are already there. Runs again only when the
 * values themselves change.
 */
export function useFillEmptyFields(formId: string, values: FieldFill | null): void {
  const wanted = values ? JSON.stringify(values) : "";
  useEffect(() => {
    if (!wanted) return;
    const form = document.getElementById(formId);
    if (!(form instanceof HTMLFormElement)) return;
    for (const [name, value] of Object.entries(JSON.parse(wanted) as FieldFill)) {
      const field = form.elements.namedItem(name);
      if (!value || !(field instanceof HTMLInputElement) || field.value !== "") continue;
      field.value = value;
      // The form library follows input events, as when the visitor types.
      field.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }, [formId, wanted]);
}
