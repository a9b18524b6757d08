// The tab's own storage (sessionStorage): what the site keeps from one page of a visit to the next,
// gone with the tab. Never the activation code (issue 28). A browser that refuses storage (a
// blocked site, a full quota) only loses what these entries are for.

export function readTab(key: string): unknown {
  try {
    const stored = sessionStorage.getItem(key);
    return stored === null ? null : (JSON.parse(stored) as unknown);
  } catch {
    return null;
  }
}

export function writeTab(key: string, value: unknown): void {
  try {
    sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Not kept: see above.
  }
}

export function forgetTab(key: string): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    // Nothing was kept.
  }
}
