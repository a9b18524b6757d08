// The licence page's own calls: a licence looked up by its e-mail and code, and renewed.
import { post, type PostBody } from "../../lib/api";
import type { Language } from "../../lib/language";

export const checkLicense = (email: string, activationCode: string, language: Language) =>
  post("/api/check-license", { email, activation_code: activationCode }, language);

export const renewLicence = (body: PostBody<"/api/renew">, language: Language) => post("/api/renew", body, language);
