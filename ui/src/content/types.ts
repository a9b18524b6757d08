// The shape of the long texts each language provides (loaded only by the pages that show them).

export type Section = { id: string; title: string; paragraphs: string[] };

export type FaqText = { question: string; answer: string };

export type AboutText = {
  lead: string;
  titles: { company: string; founder: string; ready: string; technologies: string; investment: string; roadmap: string; contact: string };
  company: string;
  founder: string;
  ready: string[];
  technologies: string;
  investment: string;
  costCaption: string;
  platform: string;
  cost: string;
  total: string;
  serverCosts: string;
  phase: string;
  costLabels: { done: string; included: string; internal: string; revenue: string; perMonth: string };
  phases: { title: string; items: string[]; duration: string }[];
};

export type PageText = {
  faq: Record<string, FaqText>;
  terms: Section[];
  privacy: Section[];
  cookie: Section[];
  about: AboutText;
};
