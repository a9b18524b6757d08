// The shape of the long texts each language provides (loaded only by the pages that show them).

/** The kinds of personal data the service holds: the ids of the data inventory (src/vpnsite/personal_data.py),
 * in its order; tests/integration/test_privacy_policy.py holds every language's policy to it. */
export const DATA_KINDS = ["email", "ip_address", "licences", "tickets", "support_inbox", "mail_queue", "vpn_sessions", "wireguard_peers", "renewal_links", "rate_limits", "erasure_journal", "backups", "request_logs", "connection_check", "hz_id_cookie", "device_cookie", "browser_storage"] as const;
export type DataKind = (typeof DATA_KINDS)[number];

/** One kind of personal data: what it is, why, on what legal basis, how long it is kept. */
export type DataEntry = { id: DataKind; name: string; what: string; why: string; basis: string; kept: string };

export type Section = { id: string; title: string; paragraphs: string[]; entries?: DataEntry[] };

export type FaqText = { question: string; answer: string };

/** The About page's own words; the operator's facts (founder, what is ready, investment, roadmap,
 * source code) are the operator's file's (routes/about.tsx). ``phase`` is a roadmap card's heading:
 * "Phase {n}: {title}". */
export type AboutText = {
  lead: string;
  titles: { company: string; founder: string; ready: string; technologies: string; investment: string; roadmap: string; contact: string };
  company: string;
  technologies: string;
  sourceCode: string;
  costCaption: string;
  platform: string;
  cost: string;
  total: string;
  phase: string;
};

export type PageText = {
  faq: Record<string, FaqText>;
  terms: Section[];
  privacy: Section[];
  cookie: Section[];
  about: AboutText;
};
