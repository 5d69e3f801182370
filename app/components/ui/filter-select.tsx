/** A labelled select of a staff list's filter form (GET): "all" first, then the options. */
export function FilterSelect({
  id,
  name,
  label,
  options,
  defaultValue,
  allLabel,
  className,
}: {
  id: string;
  name: string;
  label: string;
  options: readonly { value: string; label: string }[];
  defaultValue: string;
  allLabel: string;
  className: string;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-acero-900">
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue} className={className}>
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
