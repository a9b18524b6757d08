// The FAQ (English; the content issue brings the other four languages).

export type FaqItem = { id: string; question: string; answer: string; colour: string; icon: string };

export const FAQ: FaqItem[] = [
  { id: "cost", colour: "green", icon: "gift", question: "Is the VPN really free?", answer: "Yes. The service is free for the first 1,000,000 users, with no speed limits and no credit card. A paid plan with a 7-day demo may come later; we will tell you before anything changes." },
  { id: "code", colour: "blue", icon: "key", question: "What is the activation code?", answer: "A 20-digit number you receive when you sign up. It is the password of your VPN account; the last digit is a check digit, so a typo is spotted at once." },
  { id: "connect", colour: "purple", icon: "plug", question: "How do I connect?", answer: "Install an OpenVPN-compatible app, import a profile from your archive, and sign in: the username is your e-mail and the password is your activation code." },
  { id: "archive", colour: "orange", icon: "archive", question: "What is in the configuration archive?", answer: "A personal ZIP with one OpenVPN profile per server and protocol (UDP and TCP), each holding your own tls-crypt-v2 key, plus setup instructions. Keep it to yourself." },
  { id: "devices", colour: "teal", icon: "devices", question: "How many devices can I use?", answer: "Up to 10 devices per licence, as long as each one uses a different server. You can also get more licences with the same e-mail." },
  { id: "protocols", colour: "indigo", icon: "shield", question: "Which protocols are supported?", answer: "OpenVPN over UDP and TCP on every device. WireGuard is available in experimental mode on desktops, not on mobile." },
  { id: "renewal", colour: "green", icon: "refresh", question: "What happens after 90 days?", answer: "You can renew your licence for another 90 days from seven days before it ends, with the same activation code, on the login page or from the reminder e-mail." },
  { id: "lost", colour: "red", icon: "search", question: "I lost my activation code. What now?", answer: "Codes are stored only in a form we cannot read back, so we cannot resend it. Check the licence e-mail we sent you, or simply sign up again with the same e-mail: licences per e-mail are unlimited." },
  { id: "logs", colour: "blue", icon: "eye-off", question: "Do you keep logs?", answer: "No activity logs: we do not record the sites you visit, your traffic or the address you connect from. While you are connected we only know which server your licence uses." },
  { id: "speed", colour: "orange", icon: "bolt", question: "How fast is it?", answer: "There are no speed limits. Pick a server close to you for the lowest latency; the server status page shows the load of each one." },
  { id: "apps", colour: "purple", icon: "download", question: "Which apps can I use?", answer: "Any OpenVPN-compatible app: OpenVPN Connect for Windows, macOS, Android and iOS is the simplest choice." },
  { id: "delete", colour: "red", icon: "trash", question: "How do I delete my data?", answer: "Write to us through the support form. We answer data requests within 30 days, and personal data is erased anyway within 30 days after your licence ends." },
  { id: "languages", colour: "teal", icon: "globe", question: "Which languages does the site speak?", answer: "English, Russian, Spanish, French and Portuguese. Switch with the language menu at the top of every page." },
];

export function filterFaq(items: FaqItem[], query: string): FaqItem[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return items;
  return items.filter((item) => item.question.toLocaleLowerCase().includes(needle) || item.answer.toLocaleLowerCase().includes(needle));
}
