import assert from "node:assert/strict";
import { test } from "node:test";
import textEn from "../src/content/text/en";
import textEs from "../src/content/text/es";
import textFr from "../src/content/text/fr";
import textPt from "../src/content/text/pt";
import textRu from "../src/content/text/ru";
import { DATA_KINDS, type PageText } from "../src/content/types";
import { DICTIONARIES } from "../src/i18n/all";
import { OPERATOR_PLACEHOLDERS, withOperator } from "../src/lib/operator";

const TEXTS: Record<string, PageText> = { en: textEn, ru: textRu, es: textEs, fr: textFr, pt: textPt };

function strings(node: unknown): string[] {
  if (typeof node === "string") return [node];
  if (node && typeof node === "object") return Object.values(node).flatMap(strings);
  return [];
}

test("the privacy policy lists every kind of personal data, once, in every language", () => {
  for (const [language, text] of Object.entries(TEXTS)) {
    const entries = text.privacy.flatMap((section) => section.entries ?? []);
    assert.deepEqual(entries.map((entry) => entry.id), [...DATA_KINDS], language);
    for (const entry of entries) {
      for (const field of ["name", "what", "why", "basis", "kept"] as const) assert.ok(entry[field].length > 2, `${language} ${entry.id}.${field}`);
    }
    const rights = strings(text.privacy.find((section) => section.id === "rights")).join(" ");
    assert.match(rights, /ICO/, language);
    assert.match(rights, /\{operatorEmail\}/, language);
  }
});

test("the operator is named in the terms, the privacy policy, About and the footer of every language", () => {
  for (const [language, text] of Object.entries(TEXTS)) {
    const terms = withOperator(strings(text.terms).join(" "), OPERATOR_PLACEHOLDERS);
    const privacy = withOperator(strings(text.privacy).join(" "), OPERATOR_PLACEHOLDERS);
    for (const value of [OPERATOR_PLACEHOLDERS.name, OPERATOR_PLACEHOLDERS.number, OPERATOR_PLACEHOLDERS.address, OPERATOR_PLACEHOLDERS.email]) {
      assert.ok(terms.includes(value), `${language} terms: ${value}`);
      assert.ok(privacy.includes(value), `${language} privacy: ${value}`);
    }
    assert.match(text.about.company, /\{operatorName\}.*\{operatorNumber\}.*\{operatorAddress\}/, language);
    assert.match(text.about.founder, /\{operatorFounder\}.*15.*2015/, language);
  }
  for (const [language, dictionary] of Object.entries(DICTIONARIES)) {
    assert.match(dictionary.footer.company, /\{\{name\}\}.*\{\{number\}\}.*\{\{address\}\}/, language);
    assert.match(dictionary.footer.rights, /\{\{name\}\}/, language);
  }
});

test("the terms: the laws of England and Wales, a cap the law may set aside, up to 10 devices", () => {
  const terms = (text: PageText, id: string) => strings(text.terms.find((section) => section.id === id)).join(" ");
  assert.match(terms(textEn, "law"), /laws of England and Wales.*courts of England and Wales/);
  assert.match(terms(textEn, "liability"), /Except where the law does not allow it/);
  assert.match(terms(textRu, "licences"), /до 10 устройств/);
  assert.match(terms(textFr, "licences"), /jusqu’à 10 appareils/);
  assert.match(terms(textEs, "liability"), /Salvo donde la ley no lo permita/);
  assert.match(terms(textPt, "law"), /Inglaterra e do País de Gales/);
});

test("what the native readers caught stays fixed", () => {
  const all = (language: keyof typeof DICTIONARIES) => [...strings(DICTIONARIES[language]), ...strings(TEXTS[language])].join("\n");
  assert.ok(all("ru").includes("Встроенная приватность") && !all("ru").includes("Приватность по умолчанию"));
  assert.ok(!all("ru").includes("первого 1") && all("ru").includes("первых 1\u00a0000\u00a0000"));
  assert.ok(all("es").includes("apps de mensajería") && !/mensajerías/.test(all("es")));
  assert.ok(all("fr").includes("mon ordinateur portable") && !all("fr").includes("Mentions légales"));
  assert.equal(DICTIONARIES.fr.footer.legal, "Informations juridiques");
  assert.ok(all("pt").includes("aplicativos de mensagens") && !/mensageiros|Pegue/.test(all("pt")));
  assert.ok(!/arquivo de configuração|do seu arquivo/.test(all("pt")), "the ZIP is a pacote, its files arquivos");
  for (const language of ["ru", "fr"] as const) {
    assert.deepEqual(all(language).match(/\d [\d%]/g), null, `${language}: numbers keep together with no-break spaces`);
  }
});

test("the English source spells licence and e-mail one way", () => {
  const kinds: readonly string[] = DATA_KINDS;
  const english = [...strings(DICTIONARIES.en), ...strings(textEn)].filter((text) => !kinds.includes(text)).join("\n");
  assert.deepEqual(english.match(/\blicense\b/gi), null);
  assert.deepEqual(english.match(/\bemail\b/gi), null);
});
