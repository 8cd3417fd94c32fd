import { INPUT_CLASS } from "@/components/cabinet/form-controls";
import { buttonClassName } from "@/components/ui/button";

/**
 * A list page's search field (`q`) with its button, inside the page's GET form: what it finds is
 * said in `hint` (the services match part of a text, in any case).
 */
export function SearchBox({ id, value, placeholder, hint }: { id: string; value: string; placeholder: string; hint: string }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        Search
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={id}
          name="q"
          type="search"
          defaultValue={value}
          aria-describedby={`${id}-hint`}
          placeholder={placeholder}
          spellCheck={false}
          autoComplete="off"
          maxLength={200}
          className={`${INPUT_CLASS} font-mono sm:flex-1`}
        />
        <button type="submit" className={buttonClassName("primary")}>
          Search
        </button>
      </div>
      <p id={`${id}-hint`} className="text-xs text-(--ui-muted)">
        {hint}
      </p>
    </div>
  );
}

/** The search text of a list page's URL (`q`), trimmed and bounded. */
export function readSearchText(params: Record<string, string | string[] | undefined>): string {
  const value = params.q;
  return ((Array.isArray(value) ? value[0] : value) ?? "").trim().slice(0, 200);
}

/** A list page's search on its own: a GET form to `path`, and a way back to the whole list. */
export function ListSearch({ path, id, value, placeholder, hint, label }: { path: string; id: string; value: string; placeholder: string; hint: string; label: string }) {
  return (
    <form method="get" action={path} role="search" aria-label={label} className="mb-4 flex flex-col gap-2">
      <SearchBox id={id} value={value} placeholder={placeholder} hint={hint} />
      {value !== "" ? (
        <a href={path} className="self-start text-sm text-(--ui-link) underline">
          Show every entry
        </a>
      ) : null}
    </form>
  );
}
