/**
 * SAMPLE DATA: the landing page's testimonials (the specification calls them sample content). The dashboard,
 * projects, API-key and analytics screens show the server's real figures; nothing else here is a sample.
 */

/** Landing-page testimonials: sample content. */
export const sampleTestimonials = [
  {
    quote:
      'We replaced our home-grown login in an afternoon. Device fingerprinting caught a credential-stuffing wave on day two.',
    name: 'Priya Raman',
    role: 'CTO, Lumen Health',
  },
  {
    quote: 'The admin view of login attempts and devices is exactly what our support team needed. VPN flags are a bonus.',
    name: 'Marcus Okafor',
    role: 'Lead Engineer, Fieldnote',
  },
  {
    quote: 'Clear docs, sane defaults, and e-mail verification that just works. Our signup conversion went up.',
    name: 'Sofia Lindqvist',
    role: 'Founder, Tallyboard',
  },
];
