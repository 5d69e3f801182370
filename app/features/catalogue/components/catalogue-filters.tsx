import { Form, useSubmit } from "react-router";
import { CATALOGUE_SORTS, type CatalogueQuery } from "../search";

const fieldClass = "mt-1 block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-base text-acero-900 shadow-sm focus:border-forja-600";

/**
 * Search, category and order in one GET form: without JavaScript it works with the button; with
 * it, changing a list applies it at once. The URL holds the whole state.
 */
export function CatalogueFilters({ query, categories }: { query: CatalogueQuery; categories: { name: string; slug: string; count: number }[] }) {
  const submit = useSubmit();
  return (
    <Form method="get" action="/catalogo" role="search" aria-label="Buscar en el catálogo" className="grid gap-4 rounded-lg border border-acero-200 bg-white p-4 sm:grid-cols-6" key={`${query.q}|${query.category}|${query.sort}`}>
      <div className="sm:col-span-3">
        <label htmlFor="catalogo-q" className="block text-sm font-semibold text-acero-900">
          Buscar
        </label>
        <input
          id="catalogo-q"
          name="q"
          type="search"
          defaultValue={query.q}
          maxLength={120}
          placeholder="Por ejemplo: buje de bronce, brida 2 in, FOR-GAB-432"
          className={fieldClass}
          enterKeyHint="search"
        />
      </div>
      <div className="sm:col-span-3 lg:col-span-1">
        <label htmlFor="catalogo-categoria" className="block text-sm font-semibold text-acero-900">
          Categoría
        </label>
        <select
          id="catalogo-categoria"
          name="categoria"
          defaultValue={query.category}
          className={fieldClass}
          onChange={(event) => submit(event.currentTarget.form, { preventScrollReset: true })}
        >
          <option value="">Todas</option>
          {categories.map((category) => (
            <option key={category.slug} value={category.slug}>
              {category.name} ({category.count})
            </option>
          ))}
        </select>
      </div>
      <div className="sm:col-span-3 lg:col-span-1">
        <label htmlFor="catalogo-orden" className="block text-sm font-semibold text-acero-900">
          Ordenar por
        </label>
        <select
          id="catalogo-orden"
          name="orden"
          defaultValue={query.sort}
          className={fieldClass}
          onChange={(event) => submit(event.currentTarget.form, { preventScrollReset: true })}
        >
          {CATALOGUE_SORTS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <div className="flex items-end sm:col-span-3 lg:col-span-1">
        <button type="submit" className="btn-dark w-full py-2">
          Buscar
        </button>
      </div>
    </Form>
  );
}
