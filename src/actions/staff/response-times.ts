/**
 * 'Tiempos de respuesta' (issue 22) in Configuración: `responseTimes.save`, a plain form posted to the
 * settings page. Saved, it goes back (303) to the section with `hecho=tiempos`; refused, the page shows
 * again with what was typed and each field's message. Every running clock is recounted with the new
 * settings in the same transaction (src/server/incidents/clock.ts).
 */
import { responseTimesFromForm } from '../../domain/response-times.ts';
import { ROUTES } from '../../routes.ts';
import { getDb } from '../../server/db/index.ts';
import { saveResponseTimes } from '../../server/incidents/index.ts';
import { contentChanged } from '../../server/content/index.ts';
import { field, refuse, seeOtherTo } from '../form.ts';
import { staffForm } from './common.ts';

export const RESPONSE_TIMES_SECTION = 'tiempos-de-respuesta';

export const RESPONSE_TIMES_DONE = {
  tiempos: 'Los tiempos de respuesta se guardaron; los plazos abiertos se recalcularon.',
} as const;

export const save = staffForm(
  'responseTimes.save',
  'No se pudieron guardar los tiempos de respuesta. Inténtalo de nuevo.',
  async (form, { actor }) => {
    const read = responseTimesFromForm((name) => field(form, name));
    if (!read.ok)
      refuse(
        'BAD_REQUEST',
        'No se guardaron los tiempos de respuesta: revisa los campos marcados.',
        read.errors,
      );
    await saveResponseTimes(getDb(), read.times, actor);
    // The public pages state these hours (issue 39 §12): the built ones are given them again.
    contentChanged(getDb());
    return seeOtherTo(`${ROUTES.adminSettings}?hecho=tiempos#${RESPONSE_TIMES_SECTION}`);
  },
);

export const responseTimeActions = { save };
