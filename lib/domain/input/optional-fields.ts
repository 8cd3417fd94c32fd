import { z } from "zod";

/** "" is treated as absent: clients often send empty strings for unused optional fields. */
export const optionalText = z.preprocess((value) => (value === "" || value === null ? undefined : value), z.string().optional());
const httpUrl = z
  .string()
  .max(2048)
  .refine((value) => /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value), "must be an http(s) URL");
/** An optional http(s) URL the buyer is sent to ("" counts as absent). */
export const optionalHttpUrl = z.preprocess((value) => (value === "" ? undefined : value), httpUrl.optional());
