// The home page's testimonials are the operator's (VPNSITE_TESTIMONIALS), or in the demo the
// specification's eight labelled as examples (adapters/vpnsite_adapters/operator_files/example_testimonials.json):
// the server picks a few for each page (http/pages/testimonials.py), and for the script
// (GET /api/testimonials). None of them is in the script.
import type { components } from "../lib/api-types";

/** A pick: the testimonials, and whether they are invented examples. */
export type Testimonials = components["schemas"]["Testimonials"];

/** One as a card draws it; its stars as the label says them ("4/5"). */
export type Testimonial = Omit<Testimonials["testimonials"][number], "stars"> & { stars: string };
