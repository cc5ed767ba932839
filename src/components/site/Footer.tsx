export interface FooterProps {
  companyName: string;
  tagline: string;
  socialUrl: string;
  year: number;
}

export default function Footer({ companyName, tagline, socialUrl, year }: FooterProps) {
  return (
    <footer className="bg-brand-950 text-brand-100">
      <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-10 sm:px-6">
        <p className="text-lg font-bold text-white">{companyName}</p>
        <p>{tagline}</p>
        <a href={socialUrl} target="_blank" rel="noopener noreferrer" className="underline">
          Síguenos en redes sociales
        </a>
        <p className="text-sm">
          © {year} {companyName}. Todos los derechos reservados.
        </p>
      </div>
    </footer>
  );
}
