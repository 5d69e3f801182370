import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { FieldError } from "~/components/ui/form";

/** The privacy notice box both solicitud forms end with (required; links to the notice). */
export function PrivacyConsent({ field, privacyHref }: { field: FieldMetadata<string | undefined>; privacyHref: string }) {
  const { key, ...props } = getInputProps(field, { type: "checkbox" });
  return (
    <div>
      <div className="flex items-start gap-3">
        <input key={key} {...props} className="size-6 shrink-0 accent-forja-600" />
        <label htmlFor={field.id} className="text-sm text-acero-800">
          He leído y acepto el{" "}
          <a href={privacyHref} target="_blank" rel="noopener" className="font-semibold text-forja-700 underline underline-offset-2">
            aviso de privacidad
          </a>
          .
        </label>
      </div>
      <FieldError field={field} />
    </div>
  );
}
