"use client";

import { useState, type FormEvent } from "react";
import { Alert, Field } from "@/components/cabinet/form-controls";
import { Time } from "@/components/cabinet/page-kit";
import { SecretShownOnce } from "@/components/cabinet/secret-shown-once";
import { useCabinetAction } from "@/components/cabinet/use-cabinet-action";
import { Button } from "@/components/ui/button";

export interface EndpointView {
  url: string;
  createdAt: string;
  updatedAt: string;
  /** When the replaced secret stops signing; null when no overlap runs. */
  previousSecretExpiresAt: string | null;
}

interface IssuedSecret {
  secret: string;
  url: string | null;
  previous_secret_expires_at: string | null;
}

/** Text that is not a whole number goes to the action as is: it answers webhook.bad_overlap, as the API does. */
function overlapOf(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/**
 * A signing secret just issued: shown once (it is stored sealed and never shown again), with the
 * overlap rule — the replaced secret keeps signing in X-Webhook-Signature-Previous until it ends.
 */
function NewSecret({ issued, onDone }: { issued: IssuedSecret; onDone(): void }) {
  return (
    <SecretShownOnce status="New signing secret. Copy it now: it is not shown again." secret={issued.secret} copyName="Copy secret for signing webhooks" onDone={onDone}>
      <p className="font-mono text-sm break-all text-(--ui-fg)" data-testid="webhook-secret">
        {issued.secret}
      </p>
      <p className="text-sm text-(--ui-fg)">
        Deliveries are signed with it from now on, in X-Webhook-Signature.{" "}
        {issued.previous_secret_expires_at ? (
          <>
            Until <Time iso={issued.previous_secret_expires_at} />, each delivery also carries X-Webhook-Signature-Previous, signed with the secret it replaces: switch your receiver to the
            new secret before then (accept either while you switch).
          </>
        ) : (
          <>The secret it replaces (if any) stopped signing at once.</>
        )}
      </p>
    </SecretShownOnce>
  );
}

/**
 * The webhook endpoint: where signed events go, and its signing secret. Setting the URL and
 * rotating the secret each ask for a fresh code; both issue a new secret, shown once.
 */
export function EndpointSettings({ endpoint, canEdit, defaultOverlapHours, maxOverlapHours }: { endpoint: EndpointView | null; canEdit: boolean; defaultOverlapHours: number; maxOverlapHours: number }) {
  const setter = useCabinetAction();
  const rotator = useCabinetAction();
  const [issued, setIssued] = useState<IssuedSecret | null>(null);
  const [setError, setSetError] = useState<string | null>(null);
  const [rotateError, setRotateError] = useState<string | null>(null);

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSetError(null);
    const form = new FormData(event.currentTarget);
    const result = await setter.run("webhook.set", { url: String(form.get("url") ?? "").trim(), overlap_hours: overlapOf(String(form.get("overlap") ?? "")) });
    if (!result) return;
    if (!result.ok) setSetError(result.message);
    else setIssued(result.result as IssuedSecret);
  };

  const rotate = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setRotateError(null);
    const result = await rotator.run("webhook.rotate_secret", { overlap_hours: overlapOf(String(new FormData(event.currentTarget).get("overlap") ?? "")) });
    if (!result) return;
    if (!result.ok) setRotateError(result.message);
    else setIssued(result.result as IssuedSecret);
  };

  const overlapHint = `How long the replaced secret keeps signing beside the new one, from 0 to ${maxOverlapHours} hours (${defaultOverlapHours} when empty).`;

  return (
    <div className="flex flex-col gap-6">
      {setter.dialog}
      {rotator.dialog}
      {issued ? <NewSecret issued={issued} onDone={() => setIssued(null)} /> : null}

      {endpoint ? (
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[12rem_1fr]">
          <dt className="font-medium">Endpoint URL</dt>
          <dd className="font-mono break-all" data-testid="webhook-url">
            {endpoint.url}
          </dd>
          <dt className="font-medium">Registered</dt>
          <dd>
            <Time iso={endpoint.createdAt} />
          </dd>
          <dt className="font-medium">Secret issued</dt>
          <dd>
            <Time iso={endpoint.updatedAt} />
          </dd>
          <dt className="font-medium">Previous secret</dt>
          <dd>
            {endpoint.previousSecretExpiresAt ? (
              <>
                Still signs (X-Webhook-Signature-Previous) until <Time iso={endpoint.previousSecretExpiresAt} />
              </>
            ) : (
              <span className="text-(--ui-muted)">No longer signs</span>
            )}
          </dd>
        </dl>
      ) : (
        <Alert tone="warn">No webhook endpoint is registered: payment, wallet and payout events go only to the url_callback of each invoice or payout, if it has one.</Alert>
      )}

      {canEdit ? (
        <div className="grid gap-6 lg:grid-cols-2">
          <form onSubmit={save} className="flex min-w-0 flex-col gap-4 rounded-lg border border-(--ui-border) p-4" aria-labelledby="endpoint-form-title" noValidate>
            <h3 id="endpoint-form-title" className="font-semibold">
              {endpoint ? "Change the endpoint" : "Register an endpoint"}
            </h3>
            <Field
              id="webhook-url-input"
              name="url"
              label="Endpoint URL"
              type="url"
              required
              autoComplete="off"
              spellCheck={false}
              defaultValue={endpoint?.url ?? ""}
              placeholder="https://shop.example/webhooks/gateway"
              hint="An http(s) URL that does not point at a private or metadata address. Saving issues a new signing secret."
            />
            <Field id="webhook-set-overlap" name="overlap" label="Overlap (hours)" type="number" min={0} max={maxOverlapHours} step={1} inputMode="numeric" placeholder={String(defaultOverlapHours)} hint={overlapHint} />
            {setError ? <Alert>{setError}</Alert> : null}
            <div>
              <Button type="submit" disabled={setter.isPending}>
                {setter.isPending ? "Saving…" : "Save endpoint"}
              </Button>
            </div>
          </form>

          {endpoint ? (
            <form onSubmit={rotate} className="flex min-w-0 flex-col gap-4 rounded-lg border border-(--ui-border) p-4" aria-labelledby="rotate-form-title" noValidate>
              <h3 id="rotate-form-title" className="font-semibold">
                Rotate the signing secret
              </h3>
              <p className="text-sm text-(--ui-muted)">A new secret for the same URL, for when the current one may have leaked or on a schedule.</p>
              <Field id="webhook-rotate-overlap" name="overlap" label="Overlap (hours)" type="number" min={0} max={maxOverlapHours} step={1} inputMode="numeric" placeholder={String(defaultOverlapHours)} hint={overlapHint} />
              {rotateError ? <Alert>{rotateError}</Alert> : null}
              <div>
                <Button type="submit" variant="secondary" disabled={rotator.isPending}>
                  {rotator.isPending ? "Rotating…" : "Rotate secret"}
                </Button>
              </div>
            </form>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
