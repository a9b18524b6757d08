// Who runs the service. Pages are prerendered with placeholders that the server replaces with the
// operator's identity (VPNSITE_OPERATOR_*) in the HTML it sends, meta tags included; the script
// reads those meta tags, so it renders the same values the page arrived with.

export type Operator = { name: string; number: string; address: string; email: string; founder: string };

export const OPERATOR_FIELDS = ["name", "number", "address", "email", "founder"] as const;

export const OPERATOR_PLACEHOLDERS: Operator = {
  name: "__OPERATOR_NAME__",
  number: "__OPERATOR_NUMBER__",
  address: "__OPERATOR_ADDRESS__",
  email: "__OPERATOR_EMAIL__",
  founder: "__OPERATOR_FOUNDER__",
};

/** Where the server writes the footer's contact column (the operator's e-mail and social links),
 * put together from the build's pieces (prerender.tsx: footerParts; http/pages/footer_contact.py). */
export const FOOTER_CONTACT_MARKER = "__FOOTER_CONTACT__";

/** The meta tags every page carries in its head. */
export function operatorMeta(): string {
  return OPERATOR_FIELDS.map((field) => `<meta name="operator:${field}" content="${OPERATOR_PLACEHOLDERS[field]}">`).join("");
}

let read: Operator | null = null;

/** The operator as the served page names it; the placeholders while prerendering. */
export function operator(): Operator {
  if (typeof document === "undefined") return OPERATOR_PLACEHOLDERS;
  if (read === null) {
    const value = (field: keyof Operator) =>
      document.querySelector(`meta[name="operator:${field}"]`)?.getAttribute("content") ?? OPERATOR_PLACEHOLDERS[field];
    read = { name: value("name"), number: value("number"), address: value("address"), email: value("email"), founder: value("founder") };
  }
  return read;
}

/** A text with {operatorName}, {operatorNumber}, {operatorAddress}, {operatorEmail} and {operatorFounder} filled in. */
export function withOperator(text: string, who: Operator): string {
  return text
    .replaceAll("{operatorName}", who.name)
    .replaceAll("{operatorNumber}", who.number)
    .replaceAll("{operatorAddress}", who.address)
    .replaceAll("{operatorEmail}", who.email)
    .replaceAll("{operatorFounder}", who.founder);
}
