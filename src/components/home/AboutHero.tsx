export interface VideoSource {
  src: string;
  type?: string;
}

export interface AboutHeroProps {
  videoSources: readonly VideoSource[];
  poster: string;
  lead: string;
}

/**
 * 'Sobre Nosotros' over a muted, looping background video. It has no `autoplay` attribute:
 * src/scripts/about-video.ts starts it only when the visitor does not prefer reduced motion, so under
 * `prefers-reduced-motion` (or without JavaScript) the poster stays still and the video is never fetched.
 */
export default function AboutHero({ videoSources, poster, lead }: AboutHeroProps) {
  return (
    <section
      aria-labelledby="sobre-nosotros-titulo"
      className="relative isolate overflow-hidden bg-brand-950 text-white"
    >
      <video
        data-about-video
        className="absolute inset-0 -z-20 size-full object-cover"
        muted
        loop
        // React renders `playsInline` as-is on the server; the HTML attribute is lowercase.
        {...{ playsinline: '' }}
        preload="none"
        poster={poster}
        aria-hidden="true"
        tabIndex={-1}
        {...{ disablepictureinpicture: '' }}
      >
        {videoSources.map((source) => (
          <source key={source.src} src={source.src} type={source.type} />
        ))}
      </video>
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-gradient-to-r from-brand-950/95 via-brand-950/80 to-brand-950/40"
      />
      <div className="mx-auto max-w-7xl px-4 py-24 sm:px-6 sm:py-32 lg:px-8 lg:py-40">
        <p className="text-sm font-semibold tracking-wider text-accent-500 uppercase">Quiénes somos</p>
        <h1
          id="sobre-nosotros-titulo"
          className="mt-3 max-w-3xl text-4xl font-extrabold tracking-tight sm:text-6xl"
        >
          Sobre Nosotros
        </h1>
        <p className="mt-6 max-w-2xl text-lg text-pretty text-brand-100 sm:text-xl">{lead}</p>
      </div>
      <button
        type="button"
        data-video-toggle
        hidden
        className="absolute right-4 bottom-4 inline-flex min-h-11 items-center gap-2 rounded-full bg-brand-950/70 px-4 text-sm font-medium text-white ring-1 ring-white/20 backdrop-blur hover:bg-brand-950 focus-visible:outline-white"
      >
        Pausar animación de fondo
      </button>
    </section>
  );
}
