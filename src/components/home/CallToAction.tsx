import ContactActions from './ContactActions';

export interface CallToActionProps {
  title: string;
  text: string;
  bookingUrl: string;
}

/** Closing band: contact us or book a presentation. */
export default function CallToAction({ title, text, bookingUrl }: CallToActionProps) {
  return (
    <section aria-labelledby="cta-titulo" className="bg-white py-16 sm:py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div
          data-reveal="zoom"
          className="relative overflow-hidden rounded-card bg-gradient-to-br from-brand-800 to-brand-950 px-6 py-12 text-center text-white sm:px-12 sm:py-16"
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 400 400"
            className="absolute -top-24 -right-24 size-80 text-accent-500 opacity-20"
          >
            <circle cx="200" cy="200" r="150" fill="none" stroke="currentColor" strokeWidth="40" />
          </svg>
          <h2
            id="cta-titulo"
            className="relative mx-auto max-w-2xl text-3xl font-bold tracking-tight text-balance sm:text-4xl"
          >
            {title}
          </h2>
          <p className="relative mx-auto mt-4 max-w-2xl text-lg text-brand-100">{text}</p>
          <ContactActions
            bookingUrl={bookingUrl}
            className="relative mt-8 flex flex-col justify-center gap-3 sm:flex-row"
          />
        </div>
      </div>
    </section>
  );
}
