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
    // The founder's sentence and who has access to the servers are the operator's file's
    // (tests/integration/test_operator_facts.py); the terms take the access from the server.
    assert.match(strings(text.terms.find((section) => section.id === "access")).join(" "), /\{\{serverAccess\}\}/, language);
  }
  for (const [language, dictionary] of Object.entries(DICTIONARIES)) {
    assert.match(dictionary.footer.company, /\{\{name\}\}.*\{\{number\}\}.*\{\{address\}\}/, language);
    assert.match(dictionary.footer.rights, /\{\{name\}\}/, language);
  }
});

test("the terms: the laws of England and Wales with the consumer's own courts saved, the device limit as the site says it for its fleet", () => {
  const terms = (text: PageText, id: string) => strings(text.terms.find((section) => section.id === id)).join(" ");
  assert.match(terms(textEn, "law"), /laws of England and Wales.*courts of England and Wales/);
  assert.match(terms(textPt, "law"), /Inglaterra e do País de Gales/);
  // Scottish, Northern Irish and EU consumers keep their own courts and mandatory law (issue 39).
  const saved: Record<string, RegExp[]> = {
    en: [/Scotland or Northern Ireland/, /European Union, in the courts of your country/, /mandatory consumer laws/],
    ru: [/Шотландии или Северной Ирландии/, /Европейском союзе — в суд своей страны/, /императивные нормы/],
    es: [/Escocia o en Irlanda del Norte/, /Unión Europea, ante los de tu país/, /normas imperativas de consumo/],
    fr: [/Écosse ou en Irlande du Nord/, /Union européenne, ceux de votre pays/, /règles impératives du droit de la consommation/],
    pt: [/Escócia ou na Irlanda do Norte/, /União Europeia, nos do seu país/, /normas obrigatórias de defesa do consumidor/],
  };
  for (const [language, text] of Object.entries(TEXTS)) {
    for (const expected of saved[language]) assert.match(terms(text, "law"), expected, language);
    // The device sentence is the server's, for its fleet (lib/served.tsx: servedText("device_rule")).
    assert.match(terms(text, "licences"), /\{\{rule\}\}/, language);
    assert.doesNotMatch(terms(text, "licences"), /10/, language);
  }
});

test("free now, notice before any charge, never charged without consent: the terms, the FAQ and the home page's closing line say the same", () => {
  const says: Record<string, RegExp[]> = {
    en: [/tell you before anything costs money/, /without (your consent|agreeing to it)/],
    ru: [/предупредим/, /без (вашего|своего) согласия/],
    es: [/te avisaremos antes de cobrar nada/i, /sin (tu|su) consentimiento/],
    fr: [/nous vous préviendrons avant que quoi que ce soit ne devienne payant/i, /sans (votre|son) accord/],
    pt: [/avisaremos antes de cobrar qualquer coisa/i, /sem o (seu|próprio) consentimento/],
  };
  const closing: Record<string, RegExp[]> = {
    en: [/tell you before anything costs money/, /without your consent/],
    ru: [/предупредим заранее/, /без вашего согласия/],
    es: [/te avisaremos antes de cobrar nada/, /sin tu consentimiento/],
    fr: [/nous vous prévenons avant/, /sans votre accord/],
    pt: [/avisamos antes de cobrar qualquer coisa/, /sem o seu consentimento/],
  };
  for (const [language, text] of Object.entries(TEXTS)) {
    const service = strings(text.terms.find((section) => section.id === "service")).join(" ");
    for (const expected of says[language]) {
      assert.match(service, expected, `${language} terms`);
      assert.match(text.faq.cost.answer, expected, `${language} FAQ`);
    }
    const line = DICTIONARIES[language as keyof typeof DICTIONARIES].home.closingText;
    for (const expected of closing[language]) assert.match(line, expected, `${language} closing line`);
    assert.doesNotMatch(line, /never pay|nunca pagan|nunca pagam|не платят никогда|personne ne paiera/, language);
  }
});

test("the policies: what a paid subscription would bring, transfers abroad, the basis for mail to an address someone else typed in, and what an erasure leaves in PostgreSQL", () => {
  for (const [language, text] of Object.entries(TEXTS)) {
    const renewal = strings(text.terms.find((section) => section.id === "renewal")).join(" ");
    assert.match(renewal, /14/, `${language}: the cooling-off period`);
    assert.doesNotMatch(renewal, /\b7\b/, `${language}: no "cancel 7 days before"`);
    const transfers = strings(text.privacy.find((section) => section.id === "transfers")).join(" ");
    assert.match(transfers, /ICO/, language);
    assert.match(transfers, /\{operatorEmail\}/, language);
    const email = text.privacy.flatMap((section) => section.entries ?? []).find((entry) => entry.id === "email");
    assert.match(email?.basis ?? "", /legitimate interests|законного интереса|interés legítimo|intérêt légitime|interesse legítimo/, language);
    const rights = strings(text.privacy.find((section) => section.id === "rights")).join(" ");
    assert.match(rights, /PostgreSQL.*WAL|PostgreSQL.*write-ahead log/, language);
  }
  for (const [language, countries] of Object.entries({ en: /United States.*Switzerland/, ru: /США и Швейцарии/, es: /Estados Unidos y en Suiza/, fr: /États-Unis et en Suisse/, pt: /Estados Unidos e na Suíça/ })) {
    assert.match(strings(TEXTS[language].privacy.find((section) => section.id === "transfers")).join(" "), countries, language);
  }
});

test("liability, in every language, as a free consumer service under English law can say it: no cap, foreseeable loss, nothing the law keeps", () => {
  // What each language's clause must say: we answer for foreseeable loss from our breach or want
  // of reasonable care and skill, not for unforeseeable loss nor business losses (personal use),
  // and nothing limits liability for death or injury by negligence, for fraud, or where the law
  // does not allow it. No sum, no "as is".
  const says: Record<string, RegExp[]> = {
    en: [/reasonable care and skill/, /foreseeable result/, /not responsible for loss or damage that was not foreseeable/, /personal use.*loss of profit/, /death or personal injury caused by our negligence, for fraud/, /anything else the law does not allow us to exclude or limit/],
    ru: [/разумной тщательностью и профессиональным умением/, /предсказуемым следствием/, /нельзя было предвидеть, мы не отвечаем/, /личного использования.*упущенную выгоду/, /смерть или вред здоровью, причинённые по нашей небрежности, за мошенничество/, /закон не позволяет исключить или ограничить/],
    es: [/diligencia y una competencia razonables/, /consecuencia previsible/, /No respondemos de las pérdidas o daños que no fueran previsibles/, /uso personal.*lucro cesante/, /muerte o lesiones causadas por nuestra negligencia, por fraude/, /la ley no nos permita excluirla o limitarla/],
    fr: [/le soin et la compétence raisonnables/, /conséquence prévisible/, /pas responsables des pertes ou dommages qui n’étaient pas prévisibles/, /usage personnel.*pertes de bénéfices/, /décès ou de dommage corporel causé par notre négligence, en cas de fraude/, /la loi ne nous permet pas de l’exclure ou de la limiter/],
    pt: [/cuidado e competência razoáveis/, /consequência previsível/, /Não respondemos por perdas ou danos que não eram previsíveis/, /uso pessoal.*lucros cessantes/, /morte ou lesão corporal causada por nossa negligência, por fraude/, /a lei não nos permita excluí-la ou limitá-la/],
  };
  for (const [language, text] of Object.entries(TEXTS)) {
    const clause = strings(text.terms.find((section) => section.id === "liability")).join(" ");
    for (const expected of says[language]) assert.match(clause, expected, language);
    assert.doesNotMatch(clause, /\d|\$|USD|dólar|dollar|доллар|as is|как есть|tal cual|en l’état|estado em que/i, `${language}: no cap, no "as is"`);
  }
});

test("what the native readers caught stays fixed", () => {
  const all = (language: keyof typeof DICTIONARIES) => [...strings(DICTIONARIES[language]), ...strings(TEXTS[language])].join("\n");
  assert.ok(all("ru").includes("Встроенная приватность") && !all("ru").includes("Приватность по умолчанию"));
  // The free tier's size is the operator's, filled in as a count of users: "первых 1 000 000 пользователей".
  assert.ok(!all("ru").includes("первого") && all("ru").includes("первых {{freeUsers}}"));
  assert.ok(all("es").includes("apps de mensajería") && !/mensajerías/.test(all("es")));
  // "mon ordinateur portable" was in a testimonial: the demo's examples are the server's now
  // (tests/integration/test_social_proof.py holds it there).
  assert.ok(!all("fr").includes("Mentions légales"));
  assert.equal(DICTIONARIES.fr.footer.legal, "Informations juridiques");
  assert.ok(all("pt").includes("aplicativos de mensagens") && !/mensageiros|Pegue/.test(all("pt")));
  assert.ok(!/arquivo de configuração|do seu arquivo/.test(all("pt")), "the ZIP is a pacote, its files arquivos");
  for (const language of ["ru", "fr"] as const) {
    assert.deepEqual(all(language).match(/\d [\d%]/g), null, `${language}: numbers keep together with no-break spaces`);
  }
});

test("what the native readers caught in the second review stays fixed (issue 39)", () => {
  const all = (language: keyof typeof DICTIONARIES) => [...strings(DICTIONARIES[language]), ...strings(TEXTS[language])].join("\n");
  const ru = all("ru");
  assert.ok(!/без журналов|никаких журналов|ведёте журналы/i.test(ru) && ru.includes("без логов"), "ru: «без логов», not «без журналов»");
  assert.ok(!ru.includes("за раз") && DICTIONARIES.ru.devices.atOnce.one === "{n} устройство одновременно", "ru: «одновременно»");
  assert.ok(ru.includes("за мошенничество или умышленное введение в заблуждение"), "ru: the liability wording");
  const es = all("es");
  assert.equal(DICTIONARIES.es.licence.renew, "Renovar otros {{days}}");
  assert.match(DICTIONARIES.es.licence.codeTypo, /tiene una errata/);
  assert.equal(TEXTS.es.cookie.find((section) => section.id === "control")?.title, "Cómo controlar las cookies");
  assert.ok(!es.includes("Tu control"));
  const fr = all("fr");
  assert.match(DICTIONARIES.fr.home.closingText, /^Votre e-mail suffit\. Les \{\{freeCount\}\} premiers utilisateurs/);
  assert.match(DICTIONARIES.fr.sections.features.ip.text, /^Naviguez comme depuis le pays du serveur/);
  assert.ok(fr.includes("empreintes HMAC") && !fr.includes("à clé"), "fr: «empreinte HMAC»");
  assert.ok(fr.includes("un serveur qui manque trois signalements d’affilée"));
  assert.equal(DICTIONARIES.fr.home.countries, "Pays couverts");
  const pt = all("pt");
  assert.ok(pt.includes("Quais protocolos são compatíveis?") && !pt.includes("suportad"));
  assert.equal(TEXTS.pt.cookie.find((section) => section.id === "control")?.title, "Como controlar os cookies");
  assert.equal(DICTIONARIES.pt.home.emailPlaceholder, "voce@exemplo.com.br");
});

test("the English source spells licence and e-mail one way", () => {
  const kinds: readonly string[] = DATA_KINDS;
  const english = [...strings(DICTIONARIES.en), ...strings(textEn)].filter((text) => !kinds.includes(text)).join("\n");
  assert.deepEqual(english.match(/\blicense\b/gi), null);
  assert.deepEqual(english.match(/\bemail\b/gi), null);
});
