// Inline SVG icons, each its path: nothing is loaded from another host. The ones every page draws
// (header, footer, sign-up form) are here, in the first script; the screens' own are in
// screen-icons.ts, so they travel with the screens that draw them.

export const shieldIcon = "M12 2 4 5v6c0 5 3.4 9.7 8 11 4.6-1.3 8-6 8-11V5z";
export const globeIcon = "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20m6.9 6h-3a15.7 15.7 0 0 0-1.4-4A8 8 0 0 1 18.9 8M12 4c.8 1.2 1.5 2.5 1.9 4h-3.8c.4-1.5 1.1-2.8 1.9-4M4.3 14a8 8 0 0 1 0-4h3.4a16.5 16.5 0 0 0 0 4zm.8 2h3c.3 1.4.8 2.8 1.4 4A8 8 0 0 1 5.1 16M8.1 8h-3a8 8 0 0 1 4.4-4c-.6 1.2-1.1 2.6-1.4 4M12 20c-.8-1.2-1.5-2.5-1.9-4h3.8c-.4 1.5-1.1 2.8-1.9 4m2.3-6H9.7a14.7 14.7 0 0 1 0-4h4.6a14.7 14.7 0 0 1 0 4m.3 5.6c.6-1.2 1.1-2.6 1.4-4h3a8 8 0 0 1-4.4 4m1.7-5.6a16.5 16.5 0 0 0 0-4h3.4a8 8 0 0 1 0 4z";
export const chevronIcon = "M7.4 8.6 12 13.2l4.6-4.6L18 10l-6 6-6-6z";
export const menuIcon = "M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z";
export const xIcon = "M17.8 3h3.1l-6.8 7.8 8 10.2h-6.3l-4.9-6.4L5.3 21H2.2l7.3-8.3L1.9 3h6.4l4.5 5.9zm-1.1 16.2h1.7L7.4 4.7H5.6z";
export const sendIcon = "M2 21 23 12 2 3v7l15 2-15 2z";
export const mailIcon = "M2 5h20v14H2zm2 2v.5l8 5 8-5V7z";

export function Icon({ path, size = 24, label }: { path: string; size?: number; label?: string }) {
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
      <path d={path} />
    </svg>
  );
}
