// Inline SVG icons: nothing is loaded from another host.

const PATHS: Record<string, string> = {
  shield: "M12 2 4 5v6c0 5 3.4 9.7 8 11 4.6-1.3 8-6 8-11V5z",
  lock: "M6 10V8a6 6 0 1 1 12 0v2h1v12H5V10zm2 0h8V8a4 4 0 0 0-8 0z",
  globe: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20m6.9 6h-3a15.7 15.7 0 0 0-1.4-4A8 8 0 0 1 18.9 8M12 4c.8 1.2 1.5 2.5 1.9 4h-3.8c.4-1.5 1.1-2.8 1.9-4M4.3 14a8 8 0 0 1 0-4h3.4a16.5 16.5 0 0 0 0 4zm.8 2h3c.3 1.4.8 2.8 1.4 4A8 8 0 0 1 5.1 16M8.1 8h-3a8 8 0 0 1 4.4-4c-.6 1.2-1.1 2.6-1.4 4M12 20c-.8-1.2-1.5-2.5-1.9-4h3.8c-.4 1.5-1.1 2.8-1.9 4m2.3-6H9.7a14.7 14.7 0 0 1 0-4h4.6a14.7 14.7 0 0 1 0 4m.3 5.6c.6-1.2 1.1-2.6 1.4-4h3a8 8 0 0 1-4.4 4m1.7-5.6a16.5 16.5 0 0 0 0-4h3.4a8 8 0 0 1 0 4z",
  dns: "M4 4h16v6H4zm0 10h16v6H4zm3-7h2v0M7 17h2",
  wifi: "M12 18a2 2 0 1 0 0 4 2 2 0 0 0 0-4M4.9 12.9l1.4 1.4a8 8 0 0 1 11.4 0l1.4-1.4a10 10 0 0 0-14.2 0M1.4 9.4l1.4 1.4a13 13 0 0 1 18.4 0l1.4-1.4a15 15 0 0 0-21.2 0",
  "eye-off": "M2 4.3 3.3 3l17.7 17.7-1.3 1.3-3.4-3.4A11 11 0 0 1 1 12c1-2.3 2.6-4.3 4.6-5.7zM12 5c5 0 9.3 3.1 11 7-.7 1.7-1.8 3.1-3.1 4.3L15 11.4A3 3 0 0 0 12.6 9L9.2 5.6C10.1 5.2 11 5 12 5",
  bolt: "M13 2 4 14h7l-1 8 9-12h-7z",
  key: "M7 14a3 3 0 1 1 0-6 3 3 0 0 1 0 6m5.7-4A6 6 0 1 0 12.7 14H16v3h3v-3h2v-4z",
  plug: "M9 2v5H7v4a5 5 0 0 0 4 4.9V22h2v-6.1a5 5 0 0 0 4-4.9V7h-2V2h-2v5h-2V2z",
  archive: "M3 3h18v5H3zm1 6h16v12H4zm5 3v2h6v-2z",
  devices: "M3 5h14v10H3zm-2 12h18v2H1zm19-9h3v11h-3z",
  refresh: "M17.7 6.3A8 8 0 1 0 20 12h-2a6 6 0 1 1-1.8-4.2L13 11h7V4z",
  search: "M10 2a8 8 0 1 0 4.9 14.3l5.4 5.4 1.4-1.4-5.4-5.4A8 8 0 0 0 10 2m0 2a6 6 0 1 1 0 12 6 6 0 0 1 0-12",
  download: "M11 3h2v10l3.5-3.5 1.4 1.4L12 16.8l-5.9-5.9 1.4-1.4L11 13zM4 19h16v2H4z",
  trash: "M9 3h6l1 2h4v2H4V5h4zm-3 5h12l-1 13H7z",
  gift: "M3 8h18v4H3zm1 5h7v8H4zm9 0h7v8h-7zM12 8S10 3 7.5 4.5 9 8 12 8m0 0s2-5 4.5-3.5S15 8 12 8",
  check: "M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z",
  copy: "M8 8h12v13H8zm-4-5h12v3H6v11H4z",
  menu: "M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z",
  close: "M6.4 5 5 6.4 10.6 12 5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6L19 6.4 17.6 5 12 10.6z",
  chevron: "M7.4 8.6 12 13.2l4.6-4.6L18 10l-6 6-6-6z",
  star: "M12 2.5l2.9 6.2 6.6.7-5 4.5 1.4 6.6L12 17.2l-5.9 3.3 1.4-6.6-5-4.5 6.6-.7z",
  mail: "M2 5h20v14H2zm2 2v.5l8 5 8-5V7z",
  send: "M2 21 23 12 2 3v7l15 2-15 2z",
  x: "M17.8 3h3.1l-6.8 7.8 8 10.2h-6.3l-4.9-6.4L5.3 21H2.2l7.3-8.3L1.9 3h6.4l4.5 5.9zm-1.1 16.2h1.7L7.4 4.7H5.6z",
  server: "M3 3h18v7H3zm0 11h18v7H3zM6 6h2v1H6zm0 11h2v1H6z",
  windows: "M3 5.5 10 4.5v7H3zm8-1.2L21 3v8.5H11zM3 12.5h7v7l-7-1zm8 0h10V21l-10-1.4z",
  apple: "M16.4 12.6c0-2.5 2-3.6 2.1-3.7-1.2-1.7-3-1.9-3.6-1.9-1.5-.2-3 .9-3.8.9s-2-.9-3.3-.9A5 5 0 0 0 3.6 9.6c-1.8 3.1-.5 7.7 1.3 10.2.9 1.2 1.9 2.6 3.2 2.5 1.3 0 1.8-.8 3.3-.8s2 .8 3.3.8c1.4 0 2.3-1.2 3.1-2.5a11 11 0 0 0 1.4-2.9 4.5 4.5 0 0 1-2.8-4.3M14 5.2A4.4 4.4 0 0 0 15 2a4.6 4.6 0 0 0-3 1.5A4.2 4.2 0 0 0 11 6.6a3.8 3.8 0 0 0 3-1.4",
  android: "M6 9h12v8a1 1 0 0 1-1 1h-1v3h-2v-3h-4v3H8v-3H7a1 1 0 0 1-1-1zm-3 0h2v7H3zm16 0h2v7h-2zM7.5 4.5 6.3 2.8l.8-.6 1.3 1.9a7 7 0 0 1 7.2 0l1.3-1.9.8.6-1.2 1.7A5.9 5.9 0 0 1 18 8H6a5.9 5.9 0 0 1 1.5-3.5M9 5.5a.8.8 0 1 0 0 1.6.8.8 0 0 0 0-1.6m6 0a.8.8 0 1 0 0 1.6.8.8 0 0 0 0-1.6",
};

export function Icon({ name, size = 24, label }: { name: string; size?: number; label?: string }) {
  return (
    <svg
      class="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="currentColor"
      aria-hidden={label ? undefined : "true"}
      role={label ? "img" : undefined}
      aria-label={label}
      focusable="false"
    >
      <path d={PATHS[name] ?? PATHS.shield} />
    </svg>
  );
}

const STRIPES: Record<string, { colours: string[]; vertical?: boolean }> = {
  nl: { colours: ["#ae1c28", "#fff", "#21468b"] },
  lv: { colours: ["#9e3039", "#9e3039", "#fff", "#9e3039", "#9e3039"] },
  pl: { colours: ["#fff", "#dc143c"] },
  ro: { colours: ["#002b7f", "#fcd116", "#ce1126"], vertical: true },
  de: { colours: ["#000", "#dd0000", "#ffce00"] },
  it: { colours: ["#009246", "#fff", "#ce2b37"], vertical: true },
};

/** A country flag drawn inline (simplified), with the country's name for screen readers. */
export function Flag({ country, label }: { country: string; label: string }) {
  const stripes = STRIPES[country];
  let body;
  if (country === "ch") {
    body = (
      <>
        <rect width="30" height="20" fill="#d52b1e" />
        <path d="M13 4h4v4h4v4h-4v4h-4v-4H9V8h4z" fill="#fff" />
      </>
    );
  } else if (country === "us") {
    body = (
      <>
        {Array.from({ length: 7 }, (_, i) => (
          <rect y={(i * 20) / 6.5} width="30" height={20 / 13} fill="#b22234" />
        ))}
        <rect width="30" height="20" fill="none" />
        <rect width="13" height="10.8" fill="#3c3b6e" />
      </>
    );
  } else if (stripes) {
    const n = stripes.colours.length;
    body = stripes.colours.map((colour, i) =>
      stripes.vertical ? (
        <rect x={(30 / n) * i} width={30 / n + 0.1} height="20" fill={colour} />
      ) : (
        <rect y={(20 / n) * i} width="30" height={20 / n + 0.1} fill={colour} />
      ),
    );
  }
  return (
    <svg class="flag" width="30" height="20" viewBox="0 0 30 20" role="img" aria-label={label}>
      <rect width="30" height="20" fill="#fff" />
      {body}
    </svg>
  );
}
