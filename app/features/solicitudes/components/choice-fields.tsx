import type { ReactNode } from "react";

// Select and checkbox groups for the solicitud forms: native controls, labelled, errors beside them.

const control =
  "mt-1 block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-base text-acero-900 shadow-sm focus:border-forja-600 aria-[invalid=true]:border-red-700";

interface SelectFieldProps {
  id: string;
  name: string;
  label: string;
  options: readonly { value: string; label: string }[];
  value?: string;
  defaultValue?: string;
  onChange?: (value: string) => void;
  errors?: string[];
  placeholder: string;
  optional?: boolean;
}

export function SelectField({ id, name, label, options, value, defaultValue, onChange, errors, placeholder, optional }: SelectFieldProps) {
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-acero-900">
        {label}
        {optional ? <span className="font-normal text-acero-600"> (opcional)</span> : null}
      </label>
      <select
        id={id}
        name={name}
        className={control}
        {...(value !== undefined ? { value } : { defaultValue })}
        onChange={onChange ? (event) => onChange(event.target.value) : undefined}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? errorId : undefined}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {errors?.length ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-700">
          {errors[0]}
        </p>
      ) : null}
    </div>
  );
}

export function ChoiceGroup({ legend, children, errors, help }: { legend: string; children: ReactNode; errors?: string[]; help?: ReactNode }) {
  return (
    <fieldset>
      <legend className="text-sm font-semibold text-acero-900">{legend}</legend>
      {help ? <p className="mt-1 text-sm text-acero-600">{help}</p> : null}
      <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">{children}</div>
      {errors?.length ? <p className="mt-1 text-sm font-medium text-red-700">{errors[0]}</p> : null}
    </fieldset>
  );
}

export function Choice({ type, name, value, label, checked, defaultChecked, onChange }: { type: "checkbox" | "radio"; name: string; value: string; label: string; checked?: boolean; defaultChecked?: boolean; onChange?: (checked: boolean) => void }) {
  const id = `${name}-${value}`;
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type={type}
        name={name}
        value={value}
        className="size-6 shrink-0 accent-forja-600"
        {...(checked !== undefined ? { checked } : { defaultChecked })}
        onChange={onChange ? (event) => onChange(event.target.checked) : undefined}
      />
      <label htmlFor={id} className="text-sm text-acero-800">
        {label}
      </label>
    </div>
  );
}
