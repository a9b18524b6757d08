// The visitor identifier hz_id: random, 365 days, path /, SameSite=Lax, Secure on HTTPS.

const NAME = "hz_id";
const ONE_YEAR = 365 * 24 * 60 * 60;

export function visitorId(): string {
  const found = document.cookie.split("; ").find((part) => part.startsWith(`${NAME}=`));
  if (found) return found.slice(NAME.length + 1);
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${NAME}=${id}; Max-Age=${ONE_YEAR}; Path=/; SameSite=Lax${secure}`;
  return id;
}
