import type { ReactNode } from 'react';
import { LineIcon } from '../ui/LineIcon';
import { EmailAddress } from '../ui/KeepWhole';
import { fragmentEnd, fragmentStart } from '../../lib/site-fragments';

const escapeText = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export interface ContactDetails {
  address: string;
  phone: string;
  email: string;
  /** The opening hours of 'Tiempos de respuesta' (formatOpeningHours: issue 39 §12). */
  hours: string;
}

export interface ContactSectionProps {
  details: ContactDetails;
  /** 1 on /contacto, where this section is the page. */
  headingLevel?: 1 | 2;
  /** The contact form (built by the support/contact work); rendered in the right-hand card. */
  children?: ReactNode;
}

/** 'Contáctanos': a company blurb, street address, phone, e-mail and the message form. */
export default function ContactSection({ details, headingLevel = 2, children }: ContactSectionProps) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const FormHeading = headingLevel === 1 ? 'h2' : 'h3';
  const phoneHref = `tel:${details.phone.replace(/[^\d+]/g, '')}`;
  return (
    <section
      id="contacto"
      aria-labelledby="contacto-titulo"
      className="scroll-mt-header bg-brand-950 py-16 text-white sm:py-24"
    >
      <div className="mx-auto grid max-w-7xl gap-12 px-4 sm:px-6 lg:grid-cols-[1fr_1.1fr] lg:gap-16 lg:px-8">
        <div>
          <p className="text-sm font-semibold tracking-wider text-accent-500 uppercase">
            Hablemos de tu proyecto
          </p>
          <Heading id="contacto-titulo" className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
            Contáctanos
          </Heading>
          <p className="mt-5 max-w-xl text-lg text-brand-100">
            Cuéntanos cómo opera tu empresa y qué te está frenando. En un día laborable te responde un
            consultor, no un bot, con una propuesta concreta: qué sistema te conviene, cuánto tarda la
            implementación y cuánto cuesta.
          </p>
          <ul className="mt-10 space-y-6">
            <ContactItem label="Dirección" icon="pin">
              <address className="not-italic">{details.address}</address>
            </ContactItem>
            <ContactItem label="Teléfono" icon="phone">
              <a href={phoneHref} className="underline-offset-4 hover:underline">
                {details.phone}
              </a>
            </ContactItem>
            <ContactItem label="Correo electrónico" icon="mail">
              <a href={`mailto:${details.email}`} className="underline-offset-4 hover:underline">
                <EmailAddress email={details.email} />
              </a>
            </ContactItem>
            <ContactItem label="Horario" icon="clock">
              {/* Between the marks of the 'horario' fragment: a built page gets the current hours at start
                  and at each change of 'Tiempos de respuesta' (src/lib/site-fragments.ts). */}
              <span
                dangerouslySetInnerHTML={{
                  __html: `${fragmentStart('horario')}${escapeText(details.hours)}${fragmentEnd('horario')}`,
                }}
              />
            </ContactItem>
          </ul>
        </div>
        <div className="self-start rounded-card bg-white p-6 text-ink shadow-2xl shadow-brand-950/50 sm:p-8">
          <FormHeading className="text-xl font-bold text-brand-900">Escríbenos un mensaje</FormHeading>
          <p className="mt-1 text-sm text-muted">Todos los campos son obligatorios.</p>
          <div className="mt-6">{children}</div>
        </div>
      </div>
    </section>
  );
}

type ContactIcon = 'pin' | 'phone' | 'mail' | 'clock';

const ICON_PATHS: Record<ContactIcon, string> = {
  pin: 'M12 21s-7-6.2-7-11.5A7 7 0 0 1 19 9.5C19 14.8 12 21 12 21zM12 12a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z',
  phone:
    'M5 4h3.5l1.5 4-2.2 1.4a11 11 0 0 0 4.8 4.8L14 12l4 1.5V17a2 2 0 0 1-2 2A14 14 0 0 1 3 6a2 2 0 0 1 2-2z',
  mail: 'M4 6h16v12H4zM4 7l8 6 8-6',
  clock: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 7v5l3 2',
};

function ContactItem({ label, icon, children }: { label: string; icon: ContactIcon; children: ReactNode }) {
  return (
    <li className="flex gap-4">
      <span
        aria-hidden="true"
        className="grid size-11 shrink-0 place-items-center rounded-button bg-white/10 text-accent-500"
      >
        <LineIcon className="size-5" weight="1.8">
          <path d={ICON_PATHS[icon]} />
        </LineIcon>
      </span>
      <div>
        <p className="text-sm font-medium text-brand-100">{label}</p>
        <div className="mt-0.5 text-white">{children}</div>
      </div>
    </li>
  );
}
