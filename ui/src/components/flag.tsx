// Country flags drawn inline: nothing is loaded from another host.

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
