import type { Language } from "../lib/language";

// What the sign-up form says while it solves the check sign-ups are given when they come faster
// than people do (features/signup/proof-of-work.ts). Every language in one small file, loaded with
// the solver only when a check is asked for: neither the first script nor any screen carries it.
const WORKING: Record<Language, string> = {
  en: "Many people are signing up right now: your browser is doing a quick check (a second or two)…",
  ru: "Сейчас регистрируется очень много людей: ваш браузер проходит короткую проверку (секунду-другую)…",
  es: "Ahora mismo se está registrando mucha gente: tu navegador está haciendo una comprobación rápida (uno o dos segundos)…",
  fr: "Beaucoup de personnes s’inscrivent en ce moment\u00a0: votre navigateur fait une courte vérification (une ou deux secondes)…",
  pt: "Muita gente está se cadastrando agora: seu navegador está fazendo uma verificação rápida (um ou dois segundos)…",
};

export default WORKING;
