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
