// The sign-up's own call: the activation screen redeems the signed request the form was given.
import { post, type FormData } from "../../lib/api";
import type { Language } from "../../lib/language";

export const createUser = (form: FormData, hzId: string, language: Language) =>
  post(
    "/api/create-user",
    {
      email: form.user_email,
      user_days: form.user_days,
      subscription: form.subscription,
      user_comment: form.user_comment,
      request_id: form.request_id,
      sig: form.sig,
      cookies: { hz_id: hzId },
    },
    language,
  );
