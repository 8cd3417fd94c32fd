import fs from "node:fs";
import path from "node:path";
import { get_dmmf } from "@prisma/prisma-schema-wasm";
import pg from "pg";

/**
 * A comparable description of a database schema: tables, columns (type and nullability),
 * primary keys, unique constraints and indexes, foreign keys. Built once from
 * prisma/schema.prisma (through Prisma's own schema parser) and once from a migrated
 * database, so that any difference between the two is a drift.
 */
export interface SchemaShape {
  tables: Record<string, TableShape>;
}

export interface TableShape {
  columns: Record<string, { type: string; nullable: boolean }>;
  primaryKey: string[];
  /** Index name → "unique(col, …)" or "index(col, …)". */
  indexes: Record<string, string>;
  /** Constraint name → "col, … → table(col, …) on delete X". */
  foreignKeys: Record<string, string>;
}

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: string;
  type: string;
  isRequired: boolean;
  isList: boolean;
  nativeType?: [string, string[]] | null;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
}

interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}

interface DmmfIndex {
  model: string;
  type: "id" | "unique" | "normal" | "fulltext";
  dbName?: string | null;
  fields: { name: string }[];
}

/** Prisma's default mapping of scalar types to PostgreSQL, and of native types. */
function columnType(field: DmmfField, enumNames: Set<string>): string {
  if (enumNames.has(field.type)) return `enum:${field.type}`;
  const native = field.nativeType;
  if (native) {
    const [name, args] = native;
    switch (name) {
      case "Uuid":
        return "uuid";
      case "Timestamptz":
        return `timestamptz(${args[0] ?? 6})`;
      case "Timestamp":
        return `timestamp(${args[0] ?? 6})`;
      case "Decimal":
        return `numeric(${args.join(",")})`;
      case "VarChar":
        return `varchar(${args[0]})`;
      case "Text":
        return "text";
      case "BigInt":
        return "bigint";
      case "Integer":
        return "integer";
      case "SmallInt":
        return "smallint";
      case "JsonB":
        return "jsonb";
      default:
        return `native:${name}(${args.join(",")})`;
    }
  }
  const defaults: Record<string, string> = {
    String: "text",
    Int: "integer",
    BigInt: "bigint",
    Boolean: "boolean",
    DateTime: "timestamp(3)",
    Decimal: "numeric(65,30)",
    Float: "double precision",
    Json: "jsonb",
    Bytes: "bytea",
  };
  return defaults[field.type] ?? `unknown:${field.type}`;
}

/** The shape prisma/schema.prisma describes, using Prisma's naming conventions for constraints. */
export function shapeFromPrismaSchema(schemaPath = path.join(process.cwd(), "prisma", "schema.prisma")): SchemaShape {
  const schema = fs.readFileSync(schemaPath, "utf8");
  const dmmf = JSON.parse(get_dmmf(JSON.stringify({ prismaSchema: [["schema.prisma", schema]] }))) as {
    datamodel: { models: DmmfModel[]; enums: { name: string }[]; indexes: DmmfIndex[] };
  };
  const enumNames = new Set(dmmf.datamodel.enums.map((entry) => entry.name));
  const models = new Map(dmmf.datamodel.models.map((model) => [model.name, model]));
  const tableOf = (model: DmmfModel) => model.dbName ?? model.name;
  const columnOf = (model: DmmfModel, fieldName: string) => {
    const field = model.fields.find((candidate) => candidate.name === fieldName);
    if (!field) throw new Error(`${model.name}.${fieldName} not found`);
    return field.dbName ?? field.name;
  };
  const shape: SchemaShape = { tables: {} };
  for (const model of dmmf.datamodel.models) {
    const table: TableShape = { columns: {}, primaryKey: [], indexes: {}, foreignKeys: {} };
    for (const field of model.fields) {
      if (field.kind === "object") {
        if (field.relationFromFields && field.relationFromFields.length > 0) {
          const target = models.get(field.type)!;
          const columns = field.relationFromFields.map((name) => columnOf(model, name));
          const name = `${tableOf(model)}_${columns.join("_")}_fkey`;
          table.foreignKeys[name] = `${columns.join(", ")} → ${tableOf(target)}(${field.relationToFields!.map((name) => columnOf(target, name)).join(", ")}) on delete ${(field.relationOnDelete ?? "Restrict").toLowerCase()}`;
        }
        continue;
      }
      table.columns[field.dbName ?? field.name] = { type: columnType(field, enumNames) + (field.isList ? "[]" : ""), nullable: !field.isRequired };
    }
    shape.tables[tableOf(model)] = table;
  }
  for (const index of dmmf.datamodel.indexes) {
    const model = models.get(index.model)!;
    const table = shape.tables[tableOf(model)];
    const columns = index.fields.map((field) => columnOf(model, field.name));
    if (index.type === "id") {
      table.primaryKey = columns;
      continue;
    }
    const suffix = index.type === "unique" ? "key" : "idx";
    const name = index.dbName ?? `${tableOf(model)}_${columns.join("_")}_${suffix}`;
    table.indexes[name] = `${index.type === "unique" ? "unique" : "index"}(${columns.join(", ")})`;
  }
  for (const [tableName, indexes] of Object.entries(PARTIAL_INDEXES)) Object.assign(shape.tables[tableName].indexes, indexes);
  return shape;
}

/**
 * Partial unique indexes the migrations create, which Prisma's schema language cannot express:
 * a nonce or seqno is held by one live outgoing transaction of an address at a time; a live
 * refund is unique per (payment, address, amount); one move to cold storage per asset is on its
 * way at a time; split shares still held are found by their
 * release time; pending webhook deliveries by merchant and due time.
 */
const PARTIAL_INDEXES: Record<string, Record<string, string>> = {
  payouts: {
    payouts_live_refund_key: "unique(invoice_id, address, requested_amount) partial",
  },
  outgoing_transfers: {
    outgoing_transfers_live_nonce_key: "unique(network, from_address, nonce) partial",
    outgoing_transfers_live_seqno_key: "unique(network, from_address, seqno) partial",
    outgoing_transfers_live_txid_key: "unique(network, txid) partial",
    outgoing_transfers_live_cold_key: "unique(network, currency) partial",
  },
  split_shares: {
    split_shares_release_at_idx: "index(release_at) partial",
  },
  webhook_deliveries: {
    webhook_deliveries_pending_by_merchant_idx: "index(merchant_id, next_attempt_at, created_at) partial",
  },
};

/** The shape of the public schema of a live database. */
export async function shapeFromDatabase(connectionString: string): Promise<SchemaShape> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const shape: SchemaShape = { tables: {} };
    const tableOf = (name: string) => (shape.tables[name] ??= { columns: {}, primaryKey: [], indexes: {}, foreignKeys: {} });
    const columns = await client.query<{ table_name: string; column_name: string; type: string; nullable: boolean }>(`
      SELECT c.relname AS table_name, a.attname AS column_name,
             format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
        AND c.relname <> '_prisma_migrations'
      ORDER BY c.relname, a.attnum`);
    for (const row of columns.rows) {
      tableOf(row.table_name).columns[row.column_name] = { type: normalizeDatabaseType(row.type), nullable: row.nullable };
    }
    const indexes = await client.query<{ table_name: string; index_name: string; is_unique: boolean; is_primary: boolean; is_partial: boolean; columns: string[] }>(`
      SELECT t.relname AS table_name, i.relname AS index_name, ix.indisunique AS is_unique, ix.indisprimary AS is_primary, ix.indpred IS NOT NULL AS is_partial,
             array_agg(a.attname::text ORDER BY k.ord) AS columns
      FROM pg_index ix
      JOIN pg_class i ON i.oid = ix.indexrelid
      JOIN pg_class t ON t.oid = ix.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      JOIN LATERAL unnest(ix.indkey) WITH ORDINALITY AS k(attnum, ord) ON true
      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
      WHERE n.nspname = 'public' AND t.relname <> '_prisma_migrations'
      GROUP BY t.relname, i.relname, ix.indisunique, ix.indisprimary, ix.indpred IS NOT NULL`);
    for (const row of indexes.rows) {
      const table = tableOf(row.table_name);
      if (row.is_primary) table.primaryKey = row.columns;
      else table.indexes[row.index_name] = `${row.is_unique ? "unique" : "index"}(${row.columns.join(", ")})${row.is_partial ? " partial" : ""}`;
    }
    const foreignKeys = await client.query<{ table_name: string; name: string; columns: string[]; target: string; target_columns: string[]; on_delete: string }>(`
      SELECT t.relname AS table_name, con.conname AS name,
             (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
                JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum) AS columns,
             ft.relname AS target,
             (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
                JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum) AS target_columns,
             con.confdeltype AS on_delete
      FROM pg_constraint con
      JOIN pg_class t ON t.oid = con.conrelid
      JOIN pg_class ft ON ft.oid = con.confrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE con.contype = 'f' AND n.nspname = 'public'`);
    const onDeleteNames: Record<string, string> = { a: "noaction", r: "restrict", c: "cascade", n: "setnull", d: "setdefault" };
    for (const row of foreignKeys.rows) {
      tableOf(row.table_name).foreignKeys[row.name] =
        `${row.columns.join(", ")} → ${row.target}(${row.target_columns.join(", ")}) on delete ${onDeleteNames[row.on_delete]}`;
    }
    return shape;
  } finally {
    await client.end();
  }
}

function normalizeDatabaseType(type: string): string {
  return type
    .replace(/^timestamp\((\d)\) with time zone$/, "timestamptz($1)")
    .replace(/^timestamp\((\d)\) without time zone$/, "timestamp($1)")
    .replace(/^timestamp with time zone$/, "timestamptz(6)")
    .replace(/^character varying\((\d+)\)$/, "varchar($1)")
    .replace(/^numeric\((\d+),(\d+)\)$/, "numeric($1,$2)");
}
