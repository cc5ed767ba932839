import { Section } from '../ui/Section';

export interface TestimonialItem {
  quote: string;
  author: string;
  role: string;
  company: string;
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .slice(0, 2)
    .map((part) => part.charAt(0))
    .join('');
}

export default function Testimonials({ testimonials }: { testimonials: readonly TestimonialItem[] }) {
  return (
    <Section
      id="testimonios"
      eyebrow="En palabras de nuestros clientes"
      title="Lo que dicen de trabajar con nosotros"
    >
      <ul className="grid gap-6 lg:grid-cols-3">
        {testimonials.map((item) => (
          <li key={item.author} data-reveal="fade-up">
            <figure className="flex h-full flex-col rounded-card border border-line bg-white p-7 shadow-sm">
              <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8 text-accent-500">
                <path
                  fill="currentColor"
                  d="M13 8C7 10 4 14.5 4 20.5 4 24 6 26 9 26s5-2 5-5-2-5-5-5c0-3 2-5.5 5-6.5zm14 0c-6 2-9 6.5-9 12.5 0 3.5 2 5.5 5 5.5s5-2 5-5-2-5-5-5c0-3 2-5.5 5-6.5z"
                />
              </svg>
              <blockquote className="mt-4 flex-1 text-ink">
                <p>{item.quote}</p>
              </blockquote>
              <figcaption className="mt-6 flex items-center gap-3 border-t border-line pt-5">
                <span
                  aria-hidden="true"
                  className="grid size-11 place-items-center rounded-full bg-brand-100 font-bold text-brand-700"
                >
                  {initials(item.author)}
                </span>
                <span>
                  <span className="block font-semibold text-brand-900">{item.author}</span>
                  <span className="block text-sm text-muted">
                    {item.role}, {item.company}
                  </span>
                </span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </Section>
  );
}
