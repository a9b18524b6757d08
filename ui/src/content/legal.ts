// Terms, privacy and cookie policies (English; the content issue brings the other languages).

export type Section = { id: string; title: string; paragraphs: string[] };

export const TERMS: Section[] = [
  { id: "service", title: "The service", paragraphs: ["vpnsite provides a virtual private network service through OpenVPN-compatible apps. During the beta the service is free for the first 1,000,000 users; it may become a paid service afterwards, and we will tell you in advance."] },
  { id: "eligibility", title: "Who may use it", paragraphs: ["You must be at least 18 years old. The service is for personal, non-commercial use only."] },
  { id: "licences", title: "Licences and activation codes", paragraphs: ["A licence runs for 90 days and can be renewed. Each licence has a 20-digit activation code; you may hold any number of licences per e-mail address.", "A licence may be used on up to 10 devices at once, provided each device uses a different server."] },
  { id: "renewal", title: "Subscriptions and renewal", paragraphs: ["Paid subscriptions, when offered, renew automatically unless you cancel at least 7 days before the renewal date."] },
  { id: "acceptable-use", title: "Acceptable use", paragraphs: ["You may not use the service for anything unlawful, to attack other networks, or to send spam. We may end licences used this way."] },
  { id: "access", title: "Who can access the servers", paragraphs: ["Only one specialist of the company has administrative access to the servers."] },
  { id: "liability", title: "Liability", paragraphs: ["The service is provided as is. Our liability is limited to the lesser of the fees you paid in the 12 months before the claim and $10."] },
  { id: "law", title: "Governing law", paragraphs: ["These terms are governed by the law of the United Kingdom, and the courts of England have jurisdiction."] },
  { id: "contact", title: "Contact", paragraphs: ["Questions about these terms are welcome through the support form."] },
];

export const PRIVACY: Section[] = [
  { id: "collected", title: "What we collect", paragraphs: ["Your e-mail address and the IP address you sign up from. Nothing else about you."] },
  { id: "why", title: "Why", paragraphs: ["The e-mail identifies your licence and lets us send you your code and renewal reminders; the IP address protects the sign-up form against abuse."] },
  { id: "not-sold", title: "We do not sell data", paragraphs: ["Your data is never sold or shared for advertising."] },
  { id: "no-logs", title: "No traffic logs", paragraphs: ["We keep no logs of your traffic, the sites you visit or the address you connect to the VPN from. While you are connected, the only record is which server your licence uses; it is deleted when you disconnect."] },
  { id: "codes", title: "Activation codes", paragraphs: ["Activation codes and personal links are stored only as keyed hashes, so even a copy of our database would not reveal them."] },
  { id: "retention", title: "How long we keep it", paragraphs: ["Your e-mail and IP address are erased or anonymised within 30 days after your licence expires or is deleted."] },
  { id: "requests", title: "Your requests", paragraphs: ["You may ask for a copy of your data or for its erasure through the support form. We answer within 30 days."] },
];

export const COOKIE: Section[] = [
  { id: "what", title: "What cookies are", paragraphs: ["Cookies are small files a website stores in your browser."] },
  { id: "ours", title: "The cookie we set today", paragraphs: ["hz_id: a random identifier, first-party, kept for 365 days, used only to limit abuse of the sign-up form (so one device cannot request codes without limit). It holds nothing about you."] },
  { id: "categories", title: "Categories", paragraphs: ["Analytics cookies measure how the site is used; preference cookies remember choices such as your language; advertising cookies measure campaigns. We do not set any of these today, and will ask you before we do."] },
  { id: "control", title: "Your control", paragraphs: ["You can delete cookies in your browser settings at any time; the sign-up form will then simply set a new identifier."] },
];
