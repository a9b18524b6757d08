// The support screen's own call.
import { post } from "../../lib/api";
import type { Language } from "../../lib/language";

export const sendTicket = (email: string, activationCode: string, message: string, language: Language) =>
  post("/api/support", { email, activation_code: activationCode, message }, language);
