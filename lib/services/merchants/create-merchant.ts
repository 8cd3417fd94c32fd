import { randomUUID } from "node:crypto";
import type { Tx } from "@/lib/db/client";
import type { TxDeps, UnitOfWork } from "@/lib/deps/unit-of-work";
import { issueApiKey, type IssuedApiKey } from "@/lib/auth/api-keys";
import { isAppError } from "@/lib/errors";
import { insertCabinetUser, isEmailAddress, MIN_PASSWORD_LENGTH, preparePassword } from "@/lib/services/cabinet/users";

export interface CreateMerchantInput {
  name: string;
  email?: string;
  password?: string;
}

export interface CreatedMerchant {
  merchantId: string;
  apiKey: IssuedApiKey;
}

interface NewMerchant {
  merchantId: string;
  name: string;
  email?: string;
  passwordHash?: string;
  now: Date;
}

/**
 * Creates a merchant with a unified API key (and its cabinet owner when e-mail and password are
 * given): the input is checked and the password hashed before the transaction.
 */
export const createMerchant = {
  prepare: async (_deps: unknown, input: CreateMerchantInput): Promise<NewMerchant> => {
    const name = input.name.trim();
    if (name === "") throw new Error("A merchant needs a name");
    if ((input.email === undefined) !== (input.password === undefined)) {
      throw new Error("--email and --password go together");
    }
    const email = input.email?.trim().toLowerCase();
    if (email !== undefined && !isEmailAddress(email)) throw new Error(`"${input.email}" is not an e-mail address`);
    if (input.password !== undefined && input.password.length < MIN_PASSWORD_LENGTH) throw new Error(`The password must be at least ${MIN_PASSWORD_LENGTH} characters`);
    const passwordHash = input.password === undefined ? undefined : await preparePassword(input.password);
    return { merchantId: randomUUID(), name, email, passwordHash, now: new Date() };
  },
  execute: async (tx: Tx, deps: Pick<TxDeps, "secretBox">, { merchantId, name, email, passwordHash, now }: NewMerchant): Promise<CreatedMerchant> => {
    await tx.merchant.create({ data: { id: merchantId, name } });
    if (email !== undefined && passwordHash !== undefined) {
      try {
        await insertCabinetUser(tx, { merchantId, email, passwordHash, role: "owner" }, now);
      } catch (error) {
        if (isAppError(error) && error.code === "cabinet.email_taken") throw new Error(`A cabinet user with e-mail ${email} already exists`);
        throw error;
      }
    }
    return { merchantId, apiKey: await issueApiKey(tx, deps.secretBox, merchantId, "unified") };
  },
} satisfies UnitOfWork<CreateMerchantInput, NewMerchant, CreatedMerchant>;
