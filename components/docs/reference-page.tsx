import { CabinetTheme, ThemeSwitcher } from "@/components/cabinet/cabinet-theme";
import { FOCUS_RING, TEXT_LINK } from "@/components/ui/theme";
import type { ThemePreference } from "@/lib/cabinet/theme-preference";
import type { OpenApiDocument } from "@/lib/api/openapi/document";
import { referenceEvents, referenceOperations, type ReferenceEvent, type ReferenceOperation } from "@/lib/api/openapi/reference";
import { DocTable, DocTableRow } from "./doc-table";
import { FieldTable } from "./field-table";
import { Markdown } from "./markdown";

const anchorOf = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

/**
 * The API reference, rendered on the server from the generated OpenAPI document: it needs no
 * script from anywhere (the page works offline and with scripts off) and cannot drift from the API.
 */
export function ReferencePage({ document, theme }: { document: OpenApiDocument; theme: ThemePreference }) {
  const operations = referenceOperations(document);
  const events = referenceEvents(document);
  const sections = (document.tags ?? [])
    .map((tag) => ({ ...tag, operations: operations.filter((operation) => operation.tag === tag.name) }))
    .filter((section) => section.operations.length > 0);
  return (
    <CabinetTheme initial={theme}>
      <a href="#reference" className={`sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-10 focus:rounded focus:bg-(--ui-surface) focus:p-2 ${FOCUS_RING}`}>
        Skip to the reference
      </a>
      <header className="border-b border-(--ui-border) bg-(--ui-surface)">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-4">
          <div>
            <p className="text-sm text-(--ui-muted)">Gateway · version {document.info.version}</p>
            <h1 className="text-xl font-semibold">API reference</h1>
          </div>
          <div className="flex flex-wrap items-center gap-4">
            <a href="/v1/openapi.json" download="gateway-openapi.json" className={TEXT_LINK}>
              Download the OpenAPI document
            </a>
            <ThemeSwitcher />
          </div>
        </div>
      </header>
      <div className="mx-auto max-w-7xl px-4 lg:grid lg:grid-cols-[17rem_minmax(0,1fr)] lg:gap-8">
        <details className="mt-4 rounded-lg border border-(--ui-border) bg-(--ui-surface) p-3 lg:hidden">
          <summary className={`cursor-pointer font-medium ${FOCUS_RING}`}>Contents</summary>
          <Contents label="Contents" sections={sections} events={events} />
        </details>
        <div className="hidden lg:block">
          <div className="sticky top-0 max-h-dvh overflow-y-auto py-6">
            <Contents label="All operations" sections={sections} events={events} />
          </div>
        </div>
        <main id="reference" className="min-w-0 py-6">
          <section aria-labelledby="overview" className="rounded-xl border border-(--ui-border) bg-(--ui-surface) p-5">
            <h2 id="overview" className="text-lg font-semibold">
              Overview
            </h2>
            <Markdown text={document.info.description ?? ""} className="mt-3 text-sm leading-6" />
          </section>
          {sections.map((section) => (
            <section key={section.name} aria-labelledby={anchorOf(section.name)} className="mt-10">
              <h2 id={anchorOf(section.name)} className="text-lg font-semibold">
                {section.name}
              </h2>
              {section.description ? <p className="mt-1 text-sm text-(--ui-muted)">{section.description}</p> : null}
              {section.operations.map((operation) => (
                <OperationCard key={operation.id} operation={operation} />
              ))}
            </section>
          ))}
          <section aria-labelledby="webhook-events" className="mt-10">
            <h2 id="webhook-events" className="text-lg font-semibold">
              Webhook events
            </h2>
            <p className="mt-1 text-sm text-(--ui-muted)">What the service POSTs to your endpoint, signed with your webhook secret.</p>
            {events.map((event) => (
              <EventCard key={event.type} event={event} />
            ))}
          </section>
        </main>
      </div>
    </CabinetTheme>
  );
}

function Contents({ label, sections, events }: { label: string; sections: { name: string; operations: ReferenceOperation[] }[]; events: ReferenceEvent[] }) {
  return (
    <nav aria-label={label} className="text-sm">
      <ul className="space-y-4">
        {sections.map((section) => (
          <li key={section.name}>
            <a href={`#${anchorOf(section.name)}`} className={`font-medium ${TEXT_LINK}`}>
              {section.name}
            </a>
            <ul className="mt-1 space-y-1 border-l border-(--ui-border) pl-3">
              {section.operations.map((operation) => (
                <li key={operation.id}>
                  <a href={`#${operation.id}`} className={`block py-0.5 text-(--ui-fg) hover:underline ${FOCUS_RING}`}>
                    {operation.summary}
                  </a>
                </li>
              ))}
            </ul>
          </li>
        ))}
        <li>
          <a href="#webhook-events" className={`font-medium ${TEXT_LINK}`}>
            Webhook events
          </a>
          <ul className="mt-1 space-y-1 border-l border-(--ui-border) pl-3">
            {events.map((event) => (
              <li key={event.type}>
                <a href={`#event-${anchorOf(event.type)}`} className={`block py-0.5 font-mono text-(--ui-fg) hover:underline ${FOCUS_RING}`}>
                  {event.type}
                </a>
              </li>
            ))}
          </ul>
        </li>
      </ul>
    </nav>
  );
}

function Badge({ children, tone = "plain" }: { children: React.ReactNode; tone?: "plain" | "accent" }) {
  const colours = tone === "accent" ? "bg-(--ui-accent-soft) text-(--ui-fg) border-(--ui-accent)" : "bg-(--ui-subtle) text-(--ui-fg) border-(--ui-border)";
  return <span className={`inline-flex items-center rounded border px-2 py-0.5 text-xs font-medium ${colours}`}>{children}</span>;
}

function JsonBlock({ label, value }: { label: string; value: unknown }) {
  return (
    <figure className="mt-3">
      <figcaption className="text-xs font-medium text-(--ui-muted)">{label}</figcaption>
      <pre tabIndex={0} className={`mt-1 max-h-96 overflow-auto rounded-lg bg-(--ui-subtle) p-3 font-mono text-xs leading-5 ${FOCUS_RING}`}>
        {typeof value === "string" ? value : JSON.stringify(value, null, 2)}
      </pre>
    </figure>
  );
}

/** How the call looks with the typed client (signed operations) or curl (public ones). */
function sampleOf(operation: ReferenceOperation): string {
  const body = operation.requestExample === undefined ? "{}" : JSON.stringify(operation.requestExample, null, 2);
  if (operation.keyKinds.length === 0) {
    const path = operation.path.replace(/\{(\w+)\}/g, "<$1>");
    return operation.method === "GET" ? `curl https://gateway.example/${path.slice(1)}` : `curl -X POST https://gateway.example/${path.slice(1)} \\\n  -H 'content-type: application/json' \\\n  -d '${body}'`;
  }
  return `import { GatewayClient } from "@gateway/client";\n\nconst gateway = new GatewayClient({ baseUrl, publicId, secret });\nconst result = await gateway.request("${operation.path}", ${body});`;
}

function OperationCard({ operation }: { operation: ReferenceOperation }) {
  const titleId = `${operation.id}-title`;
  return (
    <article id={operation.id} aria-labelledby={titleId} className="mt-4 scroll-mt-4 rounded-xl border border-(--ui-border) bg-(--ui-surface) p-5">
      <h3 id={titleId} className="text-base font-semibold">
        {operation.summary}
      </h3>
      <p className="mt-2 flex flex-wrap items-center gap-2">
        <Badge tone="accent">{operation.method}</Badge>
        <code className="font-mono text-sm break-all">{operation.path}</code>
      </p>
      <p className="mt-2 flex flex-wrap gap-2">
        {operation.keyKinds.length > 0 ? <Badge>Signed · {operation.keyKinds.join(", ")} keys</Badge> : <Badge>Public</Badge>}
        {operation.isIdempotent ? <Badge>Idempotency-Key</Badge> : null}
      </p>
      {operation.description ? <Markdown text={operation.description} className="mt-3 text-sm leading-6" /> : null}
      {operation.method === "POST" ? (
        <>
          <h4 className="mt-5 text-sm font-semibold">Request body</h4>
          <FieldTable caption={`Request body of ${operation.summary}`} rows={operation.requestFields} />
        </>
      ) : null}
      <h4 className="mt-5 text-sm font-semibold">Response {operation.successStatus}</h4>
      <FieldTable caption={`Response of ${operation.summary}`} rows={operation.responseFields} />
      <h4 className="mt-5 text-sm font-semibold">Errors</h4>
      <DocTable caption={`Error codes of ${operation.summary}`} columns={["Code", "HTTP", "Meaning"]} minWidth="30rem" className="mt-2">
        {operation.errors.map((error) => (
          <DocTableRow key={error.code}>
            <th scope="row" className="px-3 py-1.5 font-normal">
              <code className="font-mono text-[0.85rem] break-all">{error.code}</code>
            </th>
            <td className="px-3 py-1.5">{error.status}</td>
            <td className="px-3 py-1.5">{error.message}</td>
          </DocTableRow>
        ))}
      </DocTable>
      <details className="mt-5">
        <summary className={`cursor-pointer text-sm font-semibold ${FOCUS_RING}`}>Examples</summary>
        <JsonBlock label={operation.keyKinds.length > 0 ? "With the typed client" : "With curl"} value={sampleOf(operation)} />
        {operation.requestExample !== undefined ? <JsonBlock label="Request body" value={operation.requestExample} /> : null}
        {operation.responseExample !== undefined ? <JsonBlock label="Result" value={operation.responseExample} /> : null}
      </details>
    </article>
  );
}

function EventCard({ event }: { event: ReferenceEvent }) {
  const id = `event-${anchorOf(event.type)}`;
  return (
    <article id={id} aria-labelledby={`${id}-title`} className="mt-4 scroll-mt-4 rounded-xl border border-(--ui-border) bg-(--ui-surface) p-5">
      <h3 id={`${id}-title`} className="font-mono text-base font-semibold">
        {event.type}
      </h3>
      {event.description ? <Markdown text={event.description} className="mt-2 text-sm leading-6" /> : null}
      <h4 className="mt-4 text-sm font-semibold">Headers</h4>
      <ul className="mt-2 space-y-1 text-sm">
        {event.headers.map((header) => (
          <li key={header.name}>
            <code className="font-mono">{header.name}</code>
            {header.isRequired ? "" : " (optional)"}: <Markdown text={header.description} className="inline [&>p]:inline" />
          </li>
        ))}
      </ul>
      <h4 className="mt-4 text-sm font-semibold">Body</h4>
      <FieldTable caption={`Body of ${event.type}`} rows={event.fields} />
    </article>
  );
}
