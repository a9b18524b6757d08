// Eight testimonials, all rated 5; avatars are generated initials, never photos of real people. Who
// they are and what they say is in each language's dictionary (testimonials.t1 … t8).

export type Testimonial = { id: number; name: string; rating: 5; avatar: string };

export const TESTIMONIALS: Testimonial[] = [
  { id: 1, name: "Marta Kowalska", rating: 5, avatar: "MK" },
  { id: 2, name: "Daniel Okafor", rating: 5, avatar: "DO" },
  { id: 3, name: "Irina Volkova", rating: 5, avatar: "IV" },
  { id: 4, name: "Lucas Ferreira", rating: 5, avatar: "LF" },
  { id: 5, name: "Sophie Laurent", rating: 5, avatar: "SL" },
  { id: 6, name: "Javier Ruiz", rating: 5, avatar: "JR" },
  { id: 7, name: "Anna Schmidt", rating: 5, avatar: "AS" },
  { id: 8, name: "Michael Chen", rating: 5, avatar: "MC" },
];

/** How many a page shows. */
export const SHOWN_TESTIMONIALS = 3;

/** Three of the eight, at random (the page the server sends has its own three: http/testimonials.py). */
export function pickTestimonials(random: () => number = Math.random): Testimonial[] {
  const pool = [...TESTIMONIALS];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, SHOWN_TESTIMONIALS);
}
