// The activation code's last digit is a Luhn check digit over the other nineteen: a typo is caught
// before any request. Tied to the Python rule by tests/check_digit_vectors.json.

export const CODE_LENGTH = 20;

export function luhnCheckDigit(payload: string): string {
  let total = 0;
  for (let i = 0; i < payload.length; i++) {
    let digit = Number(payload[payload.length - 1 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    total += digit;
  }
  return String((10 - (total % 10)) % 10);
}

export function cleanTypedCode(typed: string): string {
  return typed.trim().replace(/[\s\u00a0-]/g, "");
}

export type CodeProblem = "code_format" | "code_mistyped" | null;

export function codeProblem(typed: string): CodeProblem {
  const code = cleanTypedCode(typed);
  if (!/^[0-9]{20}$/.test(code)) return "code_format";
  return luhnCheckDigit(code.slice(0, -1)) === code.slice(-1) ? null : "code_mistyped";
}

/** How the code is shown: in groups of four, each its own element, so the digits read in groups
 * while selecting or copying them gives the digits alone. */
export const CODE_GROUP_LENGTH = 4;

export function codeGroups(code: string): string[] {
  return code.match(new RegExp(`.{1,${CODE_GROUP_LENGTH}}`, "g")) ?? [];
}
