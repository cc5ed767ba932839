import { useState } from 'react';

export interface VideoFacadeProps {
  /** YouTube video id. */
  videoId: string;
  /** Video title: the play button's and the player's accessible name. */
  title: string;
  poster: { src: string; width: number; height: number };
}

/**
 * Click-to-load video: a poster and a play button until the visitor asks for the video, so the page
 * makes no request to the video host on load. The player comes from the privacy-enhanced host and
 * starts at once (the click that created it is the visitor's consent to play).
 */
export default function VideoFacade({ videoId, title, poster }: VideoFacadeProps) {
  const [playing, setPlaying] = useState(false);
  const src = `https://www.youtube-nocookie.com/embed/${encodeURIComponent(videoId)}?autoplay=1`;

  return (
    <div
      className="relative aspect-video overflow-hidden rounded-card bg-brand-950 shadow-xl ring-1 ring-brand-900/10"
      data-video-facade=""
    >
      {playing ? (
        <iframe
          src={src}
          title={title}
          className="absolute inset-0 size-full"
          allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
          referrerPolicy="strict-origin-when-cross-origin"
          allowFullScreen
        />
      ) : (
        <button
          type="button"
          onClick={() => setPlaying(true)}
          className="group absolute inset-0 size-full cursor-pointer focus-visible:outline-offset-[-4px] focus-visible:outline-white"
          aria-label={`Reproducir el video: ${title}`}
        >
          <img
            src={poster.src}
            width={poster.width}
            height={poster.height}
            alt=""
            loading="lazy"
            decoding="async"
            className="pointer-events-none absolute inset-0 size-full object-cover"
          />
          <span
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-1/2 grid size-20 -translate-1/2 place-items-center rounded-full bg-white/95 text-brand-900 shadow-2xl ring-8 ring-white/25 transition group-hover:scale-105 group-hover:bg-white motion-reduce:transition-none sm:size-24"
          >
            <svg viewBox="0 0 24 24" className="ml-1 size-9 sm:size-10" fill="currentColor">
              <path d="M8 5.5v13a1 1 0 0 0 1.5.86l10.5-6.5a1 1 0 0 0 0-1.72L9.5 4.64A1 1 0 0 0 8 5.5z" />
            </svg>
          </span>
        </button>
      )}
    </div>
  );
}
