"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Alert, INPUT_CLASS } from "./form-controls";
import { DataTable, EmptyState, Panel, StatusBadge, Time } from "./page-kit";
import { SecretShownOnce } from "./secret-shown-once";
import { useCabinetAction } from "./use-cabinet-action";

export interface ApiKeyRow {
  publicId: string;
  kind: string;
  createdAt: string;
  revokedAt: string | null;
}

const KIND_WORDS: Record<string, string> = {
  unified: "Unified — every operation",
  payment: "Payment — invoices, refunds, links",
  payout: "Payout — payouts and payout links",
};

/** A secret just issued: shown once, with the public id it pairs with. */
function NewSecret({ issued, onDone }: { issued: { public_id: string; secret: string; kind: string }; onDone(): void }) {
  return (
    <SecretShownOnce className="mb-6" status={<>New {issued.kind} key. Copy the secret now: it is not shown again.</>} secret={issued.secret} copyName="Copy secret of the new key" onDone={onDone}>
      <dl className="grid gap-2 text-sm text-(--ui-fg) sm:grid-cols-[8rem_1fr]">
        <dt className="font-medium">Public id</dt>
        <dd className="font-mono break-all" data-testid="new-key-public-id">
          {issued.public_id}
        </dd>
        <dt className="font-medium">Secret</dt>
        <dd className="font-mono break-all" data-testid="new-key-secret">
          {issued.secret}
        </dd>
      </dl>
    </SecretShownOnce>
  );
}

/** The store's API keys: create, rotate (new secret, old key revoked at once) and revoke — each with a fresh code. */
export function ApiKeyManager({ keys, canManage }: { keys: ApiKeyRow[]; canManage: boolean }) {
  const { run, isPending, dialog } = useCabinetAction();
  const [error, setError] = useState<string | null>(null);
  const [issued, setIssued] = useState<{ public_id: string; secret: string; kind: string } | null>(null);

  const act = async (name: string, input: unknown) => {
    setError(null);
    const result = await run(name, input);
    if (result && !result.ok) setError(result.message);
    if (result?.ok && (name === "api_key.create" || name === "api_key.rotate")) setIssued(result.result as { public_id: string; secret: string; kind: string });
  };
  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void act("api_key.create", { kind: String(new FormData(event.currentTarget).get("kind") ?? "") });
  };
  const active = keys.filter((key) => !key.revokedAt);
  const revoked = keys.filter((key) => key.revokedAt);

  return (
    <>
      {dialog}
      {issued ? <NewSecret issued={issued} onDone={() => setIssued(null)} /> : null}
      {error ? (
        <div className="mb-4">
          <Alert>{error}</Alert>
        </div>
      ) : null}
      <Panel title="Active keys" id="active-keys">
        {active.length === 0 ? (
          <EmptyState title="No active key">Create one to call the API.</EmptyState>
        ) : (
          <DataTable caption="Active API keys" headers={["Public id", "Kind", "Created", canManage ? "Actions" : ""]}>
            {active.map((key) => (
              <tr key={key.publicId}>
                <td className="font-mono text-xs break-all">{key.publicId}</td>
                <td className="capitalize">{key.kind}</td>
                <td className="whitespace-nowrap">
                  <Time iso={key.createdAt} />
                </td>
                <td>
                  {canManage ? (
                    <div className="flex flex-wrap gap-2">
                      <Button variant="secondary" size="small" disabled={isPending} onClick={() => void act("api_key.rotate", { public_id: key.publicId })}>
                        Rotate<span className="sr-only"> key {key.publicId}</span>
                      </Button>
                      <Button variant="secondary" size="small" disabled={isPending} onClick={() => void act("api_key.revoke", { public_id: key.publicId })}>
                        Revoke<span className="sr-only"> key {key.publicId}</span>
                      </Button>
                    </div>
                  ) : null}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Panel>
      {canManage ? (
        <Panel title="Create a key" id="create-key">
          <form onSubmit={create} className="flex flex-col gap-4 sm:flex-row sm:items-end">
            <div className="flex flex-col gap-1 sm:w-80">
              <label htmlFor="key-kind" className="text-sm font-medium">
                Kind
              </label>
              <select id="key-kind" name="kind" defaultValue="payment" className={INPUT_CLASS}>
                {Object.entries(KIND_WORDS).map(([kind, words]) => (
                  <option key={kind} value={kind}>
                    {words}
                  </option>
                ))}
              </select>
            </div>
            <Button type="submit" disabled={isPending}>
              {isPending ? "Creating…" : "Create key"}
            </Button>
          </form>
          <p className="mt-3 text-sm text-(--ui-muted)">A new key that can make payouts freezes payouts for a while, so a stolen session cannot empty the balance at once.</p>
        </Panel>
      ) : null}
      {revoked.length > 0 ? (
        <Panel title="Revoked keys" id="revoked-keys">
          <DataTable caption="Revoked API keys" headers={["Public id", "Kind", "Created", "Revoked"]}>
            {revoked.map((key) => (
              <tr key={key.publicId}>
                <td className="font-mono text-xs break-all">{key.publicId}</td>
                <td className="capitalize">{key.kind}</td>
                <td className="whitespace-nowrap">
                  <Time iso={key.createdAt} />
                </td>
                <td className="whitespace-nowrap">
                  <StatusBadge status="revoked" /> <Time iso={key.revokedAt} />
                </td>
              </tr>
            ))}
          </DataTable>
        </Panel>
      ) : null}
    </>
  );
}
