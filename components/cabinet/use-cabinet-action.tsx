"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState, useTransition, type FormEvent, type ReactNode } from "react";
import { cabinetAction } from "@/lib/cabinet/server-actions/cabinet-action";
import { Button } from "@/components/ui/button";
import { isSensitiveAction, type CabinetActionResult } from "@/lib/cabinet/sensitive-actions";
import { ERROR_CATALOGUE } from "@/lib/errors/catalogue";
import { Alert, Field } from "./form-controls";

interface PendingCode {
  name: string;
  input: unknown;
  resolve(result: CabinetActionResult | null): void;
  error: string | null;
}

/**
 * Runs cabinet actions from a page. Sensitive ones first ask for a fresh code in a dialog (and ask
 * again when it is refused); after a success the page's server data is refreshed.
 * Render `dialog` once in the component.
 */
export function useCabinetAction(): {
  run(name: string, input?: unknown): Promise<CabinetActionResult | null>;
  isPending: boolean;
  dialog: ReactNode;
} {
  const router = useRouter();
  const [isPending, startTransition] = useTransition();
  const [pendingCode, setPendingCode] = useState<PendingCode | null>(null);

  const send = useCallback(
    (name: string, input: unknown, code?: string) =>
      new Promise<CabinetActionResult>((resolve) => {
        startTransition(async () => {
          let result: CabinetActionResult;
          try {
            result = await cabinetAction(name, input ?? {}, code);
          } catch {
            // The request did not come back (a lost connection, a restart): a refusal the form
            // shows beside what was typed, not a thrown error that would replace the page.
            result = { ok: false, code: "cabinet.unreachable", message: ERROR_CATALOGUE["cabinet.unreachable"].message };
          }
          if (result.ok) router.refresh();
          resolve(result);
        });
      }),
    [router],
  );

  const run = useCallback(
    (name: string, input: unknown = {}) => {
      if (!isSensitiveAction(name)) return send(name, input);
      return new Promise<CabinetActionResult | null>((resolve) => setPendingCode({ name, input, resolve, error: null }));
    },
    [send],
  );

  const submitCode = async (code: string) => {
    if (!pendingCode) return;
    const result = await send(pendingCode.name, pendingCode.input, code);
    if (!result.ok && (result.code === "cabinet.bad_code" || result.code === "cabinet.code_required")) {
      setPendingCode({ ...pendingCode, error: result.message });
      return;
    }
    setPendingCode(null);
    pendingCode.resolve(result);
  };
  const cancel = () => {
    pendingCode?.resolve(null);
    setPendingCode(null);
  };

  const dialog = pendingCode ? <FreshCodeDialog error={pendingCode.error} isPending={isPending} onSubmit={submitCode} onCancel={cancel} /> : null;
  return { run, isPending, dialog };
}

function FreshCodeDialog({ error, isPending, onSubmit, onCancel }: { error: string | null; isPending: boolean; onSubmit(code: string): void; onCancel(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit(String(new FormData(event.currentTarget).get("code") ?? ""));
  };
  return (
    <dialog
      ref={ref}
      aria-labelledby="fresh-code-title"
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl border border-(--ui-border) bg-(--ui-surface) p-6 text-(--ui-fg) shadow-xl backdrop:bg-black/50"
    >
      <form onSubmit={handleSubmit} className="flex flex-col gap-4">
        <h2 id="fresh-code-title" className="text-lg font-semibold">
          Confirm with a code
        </h2>
        <p className="text-sm text-(--ui-muted)">This action needs a fresh code from your authenticator app (or a recovery code).</p>
        {error ? <Alert>{error}</Alert> : null}
        <Field id="fresh-code" name="code" label="Code" autoComplete="one-time-code" required autoFocus spellCheck={false} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={isPending}>
            {isPending ? "Checking…" : "Confirm"}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
