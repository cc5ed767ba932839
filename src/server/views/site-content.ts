/**
 * What the toast, the logo wall and the staff pages 'Anuncios' and 'Logos de clientes' show (issue 23),
 * read in one call each. The public parts are rendered once per change (src/lib/site-fragments.ts).
 */
import type { ClientLogo as WallLogo } from '../../components/home/ClientLogoWall.tsx';
import { santoDomingoToday } from '../../domain/forms/meeting.ts';
import { isAnnouncementActive } from '../../domain/site-content.ts';
import { logoImageOf } from '../../lib/client-logos.ts';
import {
  activeAnnouncements,
  announcementById,
  listAnnouncements,
  type Announcement,
} from '../content/index.ts';
import {
  clientLogoById,
  listClientLogos,
  shownClientLogos,
  uploadedLogoPath,
  type ClientLogo,
} from '../content/index.ts';
import { getDb } from '../db/index.ts';
import { formatOpeningHours } from '../../domain/response-times.ts';
import { loadResponseTimes } from '../incidents/index.ts';

/**
 * The opening hours every public page states (issue 39 §12): the week of 'Tiempos de respuesta', the
 * one the desk's clock counts in, so the pages and the clock never disagree.
 */
export async function publicHoursView(): Promise<string> {
  return formatOpeningHours(await loadResponseTimes(getDb()));
}

/** The toast's announcements: the active ones, in order, as the component takes them. */
export async function toastView(now: Date = new Date()) {
  return (await activeAnnouncements(getDb(), now)).map((item) => ({
    id: item.key,
    title: item.title,
    message: item.message,
    link: item.link,
  }));
}

function wallLogo(logo: ClientLogo): WallLogo | null {
  const image = logoImageOf({ ...logo, uploadedPath: uploadedLogoPath(logo) });
  return image ? { name: logo.name, industry: '', logo: image, link: logo.link } : null;
}

/** The shown logos, in order, as the wall takes them. */
export async function logoWallView(): Promise<WallLogo[]> {
  return (await shownClientLogos(getDb())).flatMap((logo) => wallLogo(logo) ?? []);
}

export interface AnnouncementRow extends Announcement {
  active: boolean;
}

export async function announcementsAdminView(now: Date = new Date()): Promise<AnnouncementRow[]> {
  const today = santoDomingoToday(now);
  return (await listAnnouncements(getDb())).map((item) => ({
    ...item,
    active: isAnnouncementActive(item, today),
  }));
}

export async function announcementAdminView(id: number): Promise<Announcement | null> {
  return announcementById(getDb(), id);
}

export interface LogoRow extends ClientLogo {
  image: { src: string; width: number; height: number } | null;
}

const logoRow = (logo: ClientLogo): LogoRow => ({
  ...logo,
  image: logoImageOf({ ...logo, uploadedPath: uploadedLogoPath(logo) }),
});

export async function logosAdminView(): Promise<LogoRow[]> {
  return (await listClientLogos(getDb())).map(logoRow);
}

export async function logoAdminView(id: number): Promise<LogoRow | null> {
  const logo = await clientLogoById(getDb(), id);
  return logo ? logoRow(logo) : null;
}
