// Eight testimonials, all rated 5; avatars are generated initials, never photos of real people.

export type Testimonial = { id: number; name: string; company: string; location: string; rating: 5; text: string; avatar: string };

export const TESTIMONIALS: Testimonial[] = [
  { id: 1, name: "Marta Kowalska", company: "Freelance designer", location: "Kraków, Poland", rating: 5, avatar: "MK", text: "I work from cafés all day. Setting it up took two minutes and I stopped worrying about public Wi-Fi." },
  { id: 2, name: "Daniel Okafor", company: "Software engineer", location: "London, UK", rating: 5, avatar: "DO", text: "OpenVPN with tls-crypt-v2 and no client secrets in the profile: exactly the setup I would have built myself." },
  { id: 3, name: "Irina Volkova", company: "Journalist", location: "Riga, Latvia", rating: 5, avatar: "IV", text: "No logs and a company that says so in plain words. The Riga server is fast enough for video calls." },
  { id: 4, name: "Lucas Ferreira", company: "Student", location: "São Paulo, Brazil", rating: 5, avatar: "LF", text: "Free, no card, and it works on my phone and my laptop at the same time on different servers." },
  { id: 5, name: "Sophie Laurent", company: "Travel blogger", location: "Lyon, France", rating: 5, avatar: "SL", text: "Hotels, airports, trains — I connect everywhere. The site even speaks French." },
  { id: 6, name: "Javier Ruiz", company: "Small business owner", location: "Valencia, Spain", rating: 5, avatar: "JR", text: "I checked my licence in seconds with the code from the e-mail. Support answered the same day." },
  { id: 7, name: "Anna Schmidt", company: "Data analyst", location: "Frankfurt, Germany", rating: 5, avatar: "AS", text: "The status page shows real load and ping for every server, so I always pick the quiet one." },
  { id: 8, name: "Michael Chen", company: "Remote product manager", location: "New York, USA", rating: 5, avatar: "MC", text: "Stable over TCP on the office network that blocks everything else. Renewal keeps the same code." },
];

/** Three of the eight, at random. */
export function pickTestimonials(random: () => number = Math.random): Testimonial[] {
  const pool = [...TESTIMONIALS];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, 3);
}
