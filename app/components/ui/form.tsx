import { getInputProps, type FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { useNavigation } from "react-router";
import { HONEYPOT_FIELD } from "~/lib/honeypot";

// Form primitives: labelled fields with their help and Spanish error next to them, the form-level
// error, the honeypot and a submit button that says when it is working.

const inputClass =
  "mt-1 block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-base text-acero-900 shadow-sm focus:border-forja-600 aria-[invalid=true]:border-red-700";

interface FieldProps {
  field: FieldMetadata<unknown>;
  label: string;
  type?: "text" | "email" | "password" | "tel" | "number" | "date" | "url";
  help?: ReactNode;
  autoComplete?: string;
  optional?: boolean;
}

export function TextField({ field, label, type = "text", help, autoComplete, optional }: FieldProps) {
  const helpId = help ? `${field.id}-ayuda` : undefined;
  const { key, ...inputProps } = getInputProps(field, { type, ariaDescribedBy: helpId });
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-semibold text-acero-900">
        {label}
        {optional ? <span className="font-normal text-acero-600"> (opcional)</span> : null}
      </label>
      <input key={key} {...inputProps} autoComplete={autoComplete} className={inputClass} />
      {help ? (
        <p id={helpId} className="mt-1 text-sm text-acero-600">
          {help}
        </p>
      ) : null}
      <FieldError field={field} />
    </div>
  );
}

export function FieldError({ field }: { field: FieldMetadata<unknown> }) {
  if (!field.errors?.length) return null;
  return (
    <p id={field.errorId} className="mt-1 text-sm font-medium text-red-700">
      {field.errors[0]}
    </p>
  );
}

export function FormErrors({ errors, id }: { errors?: string[]; id?: string }) {
  if (!errors?.length) return null;
  return (
    <div id={id} role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm font-medium text-red-800">
      {errors.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  );
}

export function FormNotice({ children }: { children: ReactNode }) {
  return (
    <div role="status" className="rounded-md border border-green-200 bg-green-50 p-3 text-sm font-medium text-green-900">
      {children}
    </div>
  );
}

/** A field people never see; bots that fill every input do, and their solicitud is dropped. */
export function HoneypotField() {
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label htmlFor={HONEYPOT_FIELD}>Deje este campo vacío</label>
      <input id={HONEYPOT_FIELD} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

export function SubmitButton({
  children,
  pendingLabel,
  intent,
  busy = false,
  className = "btn-primary w-full",
}: {
  children: ReactNode;
  pendingLabel: string;
  intent?: string;
  /** Work the router does not see (an upload sent with XMLHttpRequest). */
  busy?: boolean;
  className?: string;
}) {
  const navigation = useNavigation();
  const pending = busy || (navigation.state === "submitting" && (intent === undefined || navigation.formData?.get("intent") === intent));
  return (
    <button type="submit" name={intent ? "intent" : undefined} value={intent} className={className} aria-disabled={pending} disabled={pending}>
      {pending ? pendingLabel : children}
    </button>
  );
}
