// The icons only the screens and the home page's later sections draw (see icons.tsx).

export const lockIcon = "M6 10V8a6 6 0 1 1 12 0v2h1v12H5V10zm2 0h8V8a4 4 0 0 0-8 0z";
export const wifiIcon = "M12 18a2 2 0 1 0 0 4 2 2 0 0 0 0-4M4.9 12.9l1.4 1.4a8 8 0 0 1 11.4 0l1.4-1.4a10 10 0 0 0-14.2 0M1.4 9.4l1.4 1.4a13 13 0 0 1 18.4 0l1.4-1.4a15 15 0 0 0-21.2 0";
export const eyeOffIcon = "M2 4.3 3.3 3l17.7 17.7-1.3 1.3-3.4-3.4A11 11 0 0 1 1 12c1-2.3 2.6-4.3 4.6-5.7zM12 5c5 0 9.3 3.1 11 7-.7 1.7-1.8 3.1-3.1 4.3L15 11.4A3 3 0 0 0 12.6 9L9.2 5.6C10.1 5.2 11 5 12 5";
export const boltIcon = "M13 2 4 14h7l-1 8 9-12h-7z";
export const keyIcon = "M7 14a3 3 0 1 1 0-6 3 3 0 0 1 0 6m5.7-4A6 6 0 1 0 12.7 14H16v3h3v-3h2v-4z";
export const starIcon = "M12 2.5l2.9 6.2 6.6.7-5 4.5 1.4 6.6L12 17.2l-5.9 3.3 1.4-6.6-5-4.5 6.6-.7z";
export const plugIcon = "M9 2v5H7v4a5 5 0 0 0 4 4.9V22h2v-6.1a5 5 0 0 0 4-4.9V7h-2V2h-2v5h-2V2z";
export const archiveIcon = "M3 3h18v5H3zm1 6h16v12H4zm5 3v2h6v-2z";
export const devicesIcon = "M3 5h14v10H3zm-2 12h18v2H1zm19-9h3v11h-3z";
export const refreshIcon = "M17.7 6.3A8 8 0 1 0 20 12h-2a6 6 0 1 1-1.8-4.2L13 11h7V4z";
export const searchIcon = "M10 2a8 8 0 1 0 4.9 14.3l5.4 5.4 1.4-1.4-5.4-5.4A8 8 0 0 0 10 2m0 2a6 6 0 1 1 0 12 6 6 0 0 1 0-12";
export const downloadIcon = "M11 3h2v10l3.5-3.5 1.4 1.4L12 16.8l-5.9-5.9 1.4-1.4L11 13zM4 19h16v2H4z";
export const trashIcon = "M9 3h6l1 2h4v2H4V5h4zm-3 5h12l-1 13H7z";
export const giftIcon = "M3 8h18v4H3zm1 5h7v8H4zm9 0h7v8h-7zM12 8S10 3 7.5 4.5 9 8 12 8m0 0s2-5 4.5-3.5S15 8 12 8";
export const checkIcon = "M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z";
export const copyIcon = "M8 8h12v13H8zm-4-5h12v3H6v11H4z";
export const serverIcon = "M3 3h18v7H3zm0 11h18v7H3zM6 6h2v1H6zm0 11h2v1H6z";
export const windowsIcon = "M3 5.5 10 4.5v7H3zm8-1.2L21 3v8.5H11zM3 12.5h7v7l-7-1zm8 0h10V21l-10-1.4z";
export const appleIcon = "M16.4 12.6c0-2.5 2-3.6 2.1-3.7-1.2-1.7-3-1.9-3.6-1.9-1.5-.2-3 .9-3.8.9s-2-.9-3.3-.9A5 5 0 0 0 3.6 9.6c-1.8 3.1-.5 7.7 1.3 10.2.9 1.2 1.9 2.6 3.2 2.5 1.3 0 1.8-.8 3.3-.8s2 .8 3.3.8c1.4 0 2.3-1.2 3.1-2.5a11 11 0 0 0 1.4-2.9 4.5 4.5 0 0 1-2.8-4.3M14 5.2A4.4 4.4 0 0 0 15 2a4.6 4.6 0 0 0-3 1.5A4.2 4.2 0 0 0 11 6.6a3.8 3.8 0 0 0 3-1.4";
export const androidIcon = "M6 9h12v8a1 1 0 0 1-1 1h-1v3h-2v-3h-4v3H8v-3H7a1 1 0 0 1-1-1zm-3 0h2v7H3zm16 0h2v7h-2zM7.5 4.5 6.3 2.8l.8-.6 1.3 1.9a7 7 0 0 1 7.2 0l1.3-1.9.8.6-1.2 1.7A5.9 5.9 0 0 1 18 8H6a5.9 5.9 0 0 1 1.5-3.5M9 5.5a.8.8 0 1 0 0 1.6.8.8 0 0 0 0-1.6m6 0a.8.8 0 1 0 0 1.6.8.8 0 0 0 0-1.6";
