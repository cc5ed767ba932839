import { Section, type SectionTone } from '../ui/Section';
import type { ImageSource } from '../ui/image';

export interface ClientLogo {
  name: string;
  industry: string;
  logo: ImageSource;
  /** The client's site, when 'Logos de clientes' gives one. */
  link?: string | null;
}

export interface ClientLogoWallProps {
  clients: readonly ClientLogo[];
  headingLevel?: 1 | 2;
  tone?: SectionTone;
}

/**
 * The client logo wall: the shown logos of 'Logos de clientes' (18 when imported) under the spec's
 * heading; without any, the heading and its text alone (the home page then leaves the section out).
 */
export default function ClientLogoWall({ clients, headingLevel = 2, tone = 'white' }: ClientLogoWallProps) {
  return (
    <Section
      id="clientes"
      eyebrow="Nuestros clientes"
      title="Empresas que impulsan su futuro con nosotros"
      headingLevel={headingLevel}
      tone={tone}
      intro="Fábricas, hoteles, firmas de contadores, farmacias, comercios y restaurantes de todo el país confían su operación diaria a los sistemas que implementamos."
    >
      {clients.length > 0 ? (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-6" data-testid="logo-wall">
          {clients.map((client) => {
            const image = (
              <img
                src={client.logo.src}
                width={client.logo.width}
                height={client.logo.height}
                alt={client.name}
                loading="lazy"
                decoding="async"
                className="h-auto w-full max-w-44"
              />
            );
            return (
              <li
                key={`${client.name} ${client.logo.src}`}
                data-reveal="fade-up"
                className="flex items-center justify-center rounded-card border border-line bg-white px-3 py-5 transition-shadow duration-200 hover:shadow-md"
              >
                {client.link ? (
                  <a href={client.link} rel="noopener" className="flex w-full items-center justify-center">
                    {image}
                  </a>
                ) : (
                  image
                )}
              </li>
            );
          })}
        </ul>
      ) : null}
    </Section>
  );
}
