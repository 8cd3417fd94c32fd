import { periodicJobFunctions } from "./periodic-jobs";

/** Every Inngest function the application serves at /api/inngest. */
export const functions = [...periodicJobFunctions];
