import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { runCabinetAction } from "@/lib/cabinet/run-action";
import { isSensitiveAction } from "@/lib/cabinet/sensitive-actions";
import { ERROR_CATALOGUE } from "@/lib/errors";
import {
  actAsPage,
  addMember,
  createStore,
  DEAD_HOOK,
  movingClock,
  newEmail,
  newStore,
  openSessionFor,
  randomOrigin,
  success,
  TEST_PASSWORD,
  TRON_ADDRESS,
  type CabinetStore,
  type MovingClock,
} from "@/lib/testing/cabinet";
import { payInvoice } from "@/lib/testing/funding";
import { FUZZ_SEED, fuzzRuns, HOSTILE_STRINGS, hostileBody, hostileString, hostileValueOver } from "@/lib/testing/fuzz";
import { getTestDb } from "@/lib/testing/harness";
import { CABINET_ACTIONS } from "./index";

// The cabinet's action table under hostile input, as lib/api/operation-fuzz.int.test.ts does for
// the API's operations: the owner of a store (every permission, a fresh code for each sensitive
// action, so the input reaches the service) runs every action with well-formed inputs spoiled a
// field or two at a time, and with anything at all. Every answer must be a result or a refusal
// with a catalogue code: runCabinetAction throws only on a bug, which a page would show as a 500.
// Another store's rows must not change (isolation.int.test.ts checks that in depth).

/** Fixed seed and a bounded number of runs per action (GATEWAY_FUZZ_RUNS overrides it). */
const RUNS_PER_ACTION = fuzzRuns(60);
const db = () => getTestDb();

/** The fuzzed store's objects that the samples name, so unspoiled fields find something. */
interface Fixture {
  paidInvoice: string;
  pendingPayout: string;
  paymentLink: string;
  payoutLink: string;
  wallet: string;
  splitRule: string;
  delivery: string;
  member: string;
  invitation: string;
  apiKey: string;
  session: string;
}

/** A well-formed input per action (of the fuzzed store's own objects): the fuzzer spoils one or two of its fields. */
const SAMPLES: Record<string, (fixture: Fixture) => Record<string, unknown>> = {
  "payout.create": () => ({ amount: "1", currency: "USDT", network: "tron", address: TRON_ADDRESS, order_id: "fuzz-payout" }),
  "payout.approve": (f) => ({ uuid: f.pendingPayout }),
  "payout.reject": (f) => ({ uuid: f.pendingPayout }),
  "payout.cancel": (f) => ({ uuid: f.pendingPayout }),
  "session.revoke": (f) => ({ id: f.session }),
  "session.revoke_all": () => ({}),
  "alerts.set": () => ({ kind: "debt", is_on: true }),
  "password.change": () => ({ current_password: TEST_PASSWORD, new_password: TEST_PASSWORD }),
  "two_factor.regenerate_recovery_codes": () => ({}),
  "two_factor.begin_reset": () => ({ password: TEST_PASSWORD }),
  "two_factor.confirm_reset": () => ({ code: "123456" }),
  "invoice.create": () => ({ amount: "12.50", currency: "USD", to_currency: "USDT", network: "tron", order_id: "fuzz-invoice" }),
  "invoice.resend_webhook": (f) => ({ uuid: f.paidInvoice }),
  "refund.create": (f) => ({ uuid: f.paidInvoice, amount: "1", address: TRON_ADDRESS, network: "tron" }),
  "invoice.resolve": (f) => ({ uuid: f.paidInvoice, action: "refund", address: TRON_ADDRESS, amount: "1" }),
  "payment_link.create": () => ({ title: "Mug", description: "A mug", amount_mode: "fixed", currency: "EUR", amount: "9.99", url_return: "https://shop.example/thanks" }),
  "payment_link.toggle": (f) => ({ link_id: f.paymentLink, is_active: false }),
  "payout_link.create": () => ({ currency: "USDT", network: "tron", amount: "1", reference: "fuzz-link", title: "Prize", note: "n", email: "winner@example.com", expires_in_hours: 24 }),
  "payout_link.cancel": (f) => ({ link_id: f.payoutLink }),
  "static_wallet.create": () => ({ currency: "USDT", network: "tron", order_id: "fuzz-wallet", url_callback: DEAD_HOOK }),
  "static_wallet.block": (f) => ({ uuid: f.wallet }),
  "static_wallet.refund_blocked": (f) => ({ uuid: f.wallet, address: TRON_ADDRESS }),
  "settings.set_accepted": () => ({ accepted: [{ currency: "USDT", network: "tron" }] }),
  "settings.set_payout_fee": () => ({ is_subtract: true }),
  "settings.set_refund_fee": () => ({ payer: "customer" }),
  "settings.set_autorefund": () => ({ underpaid: false, overpaid: false }),
  "settings.set_auto_withdraw": () => ({ currency: "TRX", network: "tron", address: TRON_ADDRESS, min: "1000" }),
  "settings.delete_auto_withdraw": () => ({ currency: "TRX", network: "tron" }),
  "settings.create_split_rule": () => ({ percent: 5, address: TRON_ADDRESS, network: "tron", note: "partner" }),
  "settings.delete_split_rule": (f) => ({ rule_id: f.splitRule }),
  "settings.set_split_config": () => ({ refund_hold_hours: 24 }),
  "settings.set_threshold": () => ({ currency: "TRX", network: "tron", per_payout: "1000", per_day: null }),
  "allowlist.add": () => ({ cidr: "203.0.113.0/24" }),
  "allowlist.remove": () => ({ cidr: "203.0.113.0/24" }),
  "allowlist.enable": () => ({ enabled: false }),
  "personal_wallet.save": () => ({ currency: "USDT", network: "tron", address: TRON_ADDRESS, label: "cold storage" }),
  "personal_wallet.remove": () => ({ currency: "TRX", network: "tron" }),
  "personal_wallet.transfer": () => ({ currency: "USDT", network: "tron", amount: "1", reference: "fuzz-transfer" }),
  "webhook.set": () => ({ url: DEAD_HOOK, overlap_hours: 1 }),
  "webhook.rotate_secret": () => ({ overlap_hours: 1 }),
  "webhook.test": () => ({ family: "wallet", status: "paid", url: DEAD_HOOK }),
  "webhook.resend": (f) => ({ delivery_id: f.delivery }),
  "team.invite": () => ({ email: "invitee@example.com", role: "viewer" }),
  "team.revoke_invitation": (f) => ({ id: f.invitation }),
  "team.change_role": (f) => ({ id: f.member, role: "finance" }),
  "team.remove": (f) => ({ id: f.member }),
  "api_key.create": () => ({ kind: "payment" }),
  "api_key.revoke": (f) => ({ public_id: f.apiKey }),
  "api_key.rotate": (f) => ({ public_id: f.apiKey }),
};

/**
 * Actions on the user's own credentials and sessions: fuzzed as an owner of another store, from an
 * address of its own, so a password changed by a spoiled sample, the lock of wrong passwords or
 * ended sessions leave alone the owner every other action runs as (and every other test).
 */
const OWN_ACCOUNT_ACTIONS = new Set(["password.change", "two_factor.begin_reset", "two_factor.confirm_reset", "session.revoke_all"]);

/** The fields an action's input schema names (its sample may leave optional ones out). */
const schemaFields = (name: string) => {
  const schema = CABINET_ACTIONS[name].input.schema;
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
};

/** Field names the cabinet's inputs use somewhere, and a few they don't: a fuzzed input hits real fields, not only unknown keys. */
const FIELD_NAMES = [...new Set([...Object.keys(CABINET_ACTIONS).flatMap(schemaFields), "order_id", "merchant_id", "uuid", "id", "code", "__proto__"])].sort();
const hostileValue = hostileValueOver(FIELD_NAMES);

/**
 * Values that break storage rather than parsing (over-long, NUL, a lone surrogate, astral
 * characters, empty, another type): each goes into every field of every action's sample once,
 * the sample otherwise intact, so every field reaches its service with each.
 */
const FIELD_BREAKERS: unknown[] = ["x".repeat(5000), "9".repeat(400), "a\u0000b", "\uD800", "🙂".repeat(300), "", " ", 1e308, Number.MIN_VALUE, -1, true, null, [], {}];

/** Codes a sensitive action may answer for a code that is not the authenticator's current one. */
const CODE_REFUSALS = ["cabinet.bad_code", "cabinet.code_required", "cabinet.locked"];
/** What a code field may hold: hostile strings, and some the code check parses (six digits, a recovery code's shape, huge, unicode). */
const hostileCode = fc.oneof(
  hostileString,
  fc.constantFrom("000000", " 123 456 ", "１２３４５６", "abcd-efgh-ijkl", "ABCD-1234", "0".repeat(100_000), "🙂".repeat(10_000), "a\u0000b", "\u0000".repeat(6), "\u200b123456"),
  fc.stringMatching(/^[0-9 ]{5,8}$/),
  fc.string({ unit: "grapheme", maxLength: 64 }),
);

/** The rows of a store (every table with a merchant_id, its row in merchants), as text: one query. */
async function rowsOf(merchantId: string): Promise<string[]> {
  const tables = await db().$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'merchant_id' ORDER BY table_name`;
  const parts = tables.map(({ table_name }) => `SELECT '${table_name}' || ':' || to_jsonb(t)::text AS row FROM "${table_name}" t WHERE t.merchant_id = $1::uuid`);
  parts.push(`SELECT 'merchants:' || to_jsonb(t)::text AS row FROM merchants t WHERE t.id = $1::uuid`);
  const rows = await db().$queryRawUnsafe<{ row: string }[]>(`${parts.join(" UNION ALL ")} ORDER BY 1`, merchantId);
  return rows.map(({ row }) => row);
}

const preview = (value: unknown) => (JSON.stringify(value) ?? String(value)).slice(0, 300);

describe("cabinet action table under hostile input", () => {
  let clock: MovingClock;
  let store: CabinetStore;
  let fixture: Fixture;
  let bystander: { merchantId: string; ids: string[]; rows: string[] };
  let account: { context: { deps: MovingClock["deps"]; actor: CabinetStore["owner"]["actor"]; origin: { ipAddress: string; userAgent: string } }; secret: string };

  beforeAll(async () => {
    clock = movingClock();
    store = await newStore(clock, "Fuzzed shop");
    const owner = store.owner;
    const run = async (name: string, input: unknown) => success(await actAsPage(clock, owner, name, input), name);

    // Money in (a paid invoice and its webhook delivery), then an object of each kind the samples name.
    await run("webhook.set", { url: DEAD_HOOK });
    const paid = await payInvoice(store.api, "100.00");
    const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { merchantId: store.merchantId } });
    await run("personal_wallet.save", { currency: "USDT", network: "tron", address: TRON_ADDRESS });
    const payout = await run("payout.create", { amount: "2", currency: "USDT", network: "tron", address: TRON_ADDRESS });
    const paymentLink = await run("payment_link.create", { title: "Tee", amount_mode: "fixed", currency: "EUR", amount: "19.99" });
    const payoutLink = await run("payout_link.create", { currency: "USDT", network: "tron", amount: "2", expires_in_hours: 720 });
    const wallet = await run("static_wallet.create", { currency: "USDT", network: "tron", order_id: "fixture-wallet" });
    const split = await run("settings.create_split_rule", { percent: 10, address: TRON_ADDRESS, network: "tron" });
    const invitation = await run("team.invite", { email: newEmail("invitee"), role: "viewer" });
    const apiKey = await run("api_key.create", { kind: "payment" });
    const member = await addMember(clock, store.merchantId, "viewer");
    const session = await openSessionFor(owner.actor.email, clock.deps.now());
    fixture = {
      paidInvoice: paid.uuid,
      pendingPayout: payout.uuid,
      paymentLink: paymentLink.link_id,
      payoutLink: payoutLink.link_id,
      wallet: wallet.uuid,
      splitRule: split.rule_id,
      delivery: delivery.id,
      member: member.actor.userId,
      invitation: invitation.id,
      apiKey: apiKey.public_id,
      session: session.sessionId,
    };

    const accountOrigin = randomOrigin();
    const accountStore = await newStore(clock, "Fuzzed account shop", accountOrigin);
    account = { context: { deps: clock.deps, actor: accountStore.owner.actor, origin: accountOrigin }, secret: accountStore.owner.secret };

    // Another store, whose identifiers the fuzzer also tries: none of its rows may change.
    const other = await createStore("Bystander shop");
    const otherUser = await db().cabinetUser.findUniqueOrThrow({ where: { email: other.ownerEmail } });
    bystander = { merchantId: other.merchantId, ids: [other.merchantId, otherUser.id, other.ownerEmail, other.api.publicId], rows: await rowsOf(other.merchantId) };
  }, 120_000);

  it("has a sample input for every cabinet action", () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(Object.keys(CABINET_ACTIONS).sort());
  });

  it.each(Object.keys(CABINET_ACTIONS).sort())("%s answers hostile input with a result or a catalogue code, never a throw", async (name) => {
    const sample = SAMPLES[name];
    expect(sample, `${name} has no sample input`).toBeDefined();
    const value = fc.oneof({ weight: 4, arbitrary: hostileValue }, { weight: 1, arbitrary: fc.constantFrom(...bystander.ids) });
    const answersWithinCatalogue = async (input: unknown) => {
      let answer: Awaited<ReturnType<typeof runCabinetAction>>;
      try {
        answer = OWN_ACCOUNT_ACTIONS.has(name)
          ? await runCabinetAction(account.context, name, input, isSensitiveAction(name) ? await clock.nextCode(account.secret) : undefined)
          : await actAsPage(clock, store.owner, name, input);
      } catch (error) {
        throw new Error(`${name} threw on ${preview(input)}: ${error instanceof Error ? error.stack : String(error)}`);
      }
      if (!answer.ok) expect(Object.hasOwn(ERROR_CATALOGUE, answer.code), `${name} with ${preview(input)} → ${answer.code}`).toBe(true);
    };
    await fc.assert(fc.asyncProperty(hostileBody(sample(fixture), FIELD_NAMES, value), answersWithinCatalogue), { seed: FUZZ_SEED, numRuns: RUNS_PER_ACTION, endOnFailure: true });
    const fields = [...new Set([...Object.keys(sample(fixture)), ...schemaFields(name)])];
    for (const field of fields) {
      for (const breaker of FIELD_BREAKERS) await answersWithinCatalogue({ ...sample(fixture), [field]: breaker });
    }
    // Still healthy, and the other store untouched.
    await db().$queryRaw`SELECT 1`;
    expect(await rowsOf(bystander.merchantId)).toEqual(bystander.rows);
  });

  it("answers a hostile code for a sensitive action with a code refusal, never a throw", async () => {
    const name = "api_key.create";
    expect(isSensitiveAction(name)).toBe(true);
    // A user and an address of their own: the wrong codes lock this account, and no other test's.
    // The owner asks for fresh codes from where it signed in (an address of its own, so the
    // wrong codes here lock out no other test): only that address's count applies.
    const origin = randomOrigin();
    const { owner, merchantId } = await newStore(clock, "Code fuzz shop", origin);
    const context = { deps: clock.deps, actor: owner.actor, origin };
    const keysBefore = await db().apiKey.count({ where: { merchantId } });
    const answerTo = async (code: string | undefined) => {
      try {
        const answer = await runCabinetAction(context, name, { kind: "payment" }, code);
        return answer.ok ? "ok" : answer.code;
      } catch (error) {
        throw new Error(`${name} threw on code ${preview(code)}: ${error instanceof Error ? error.stack : String(error)}`);
      }
    };
    await fc.assert(
      // Now and then a pause lets the lock of five wrong codes run out: codes reach the check itself as well as the lock.
      fc.asyncProperty(fc.option(hostileCode, { nil: undefined, freq: 10 }), fc.nat(3).map((n) => n === 0), async (code, pause) => {
        if (pause) clock.advance(16 * 60_000);
        expect(await answerTo(code), `code ${preview(code)}`).toBeOneOf(CODE_REFUSALS);
      }),
      { seed: FUZZ_SEED, numRuns: Math.max(RUNS_PER_ACTION, 40), endOnFailure: true },
    );
    // The hostile strings themselves, each with the lock run out: checked, never thrown.
    for (const code of [...HOSTILE_STRINGS, "x".repeat(1_000_000), undefined]) {
      clock.advance(16 * 60_000);
      expect(await answerTo(code), `code ${preview(code)}`).toBe(code === undefined || code.trim() === "" ? "cabinet.code_required" : "cabinet.bad_code");
    }
    // Five wrong codes in a row lock the account: the sixth, however hostile, is answered with the lock.
    clock.advance(16 * 60_000);
    const answers = [];
    for (const code of ["000000", "a\u0000b", "\uD800".repeat(1000), "🙂", "9".repeat(400), "x".repeat(5000)]) answers.push(await answerTo(code));
    expect(answers).toEqual([...Array(4).fill("cabinet.bad_code"), "cabinet.locked", "cabinet.locked"]);
    expect(await db().apiKey.count({ where: { merchantId } })).toBe(keysBefore);
  });
});
