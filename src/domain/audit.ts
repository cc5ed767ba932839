/**
 * What the staff area's audit log records (the 'Actividad' of the settings page): each action's code,
 * as stored in `audit_events.action`, and its Spanish label. Free of server code, so islands can import
 * the labels.
 */
export const AUDIT_ACTIONS = {
  'signin.ok': 'Inicio de sesión',
  'signin.failed': 'Intento de inicio de sesión fallido',
  signout: 'Cierre de sesión',
  'password.changed': 'Cambio de contraseña',
  'account.renamed': 'Cambio de nombre',
  'two-step.enabled': 'Verificación en dos pasos activada',
  'two-step.disabled': 'Verificación en dos pasos desactivada',
  'session.ended': 'Sesión cerrada a distancia',
  'incident.state': 'Cambio de estado de incidencia',
  'incident.reply': 'Respuesta al cliente',
  'incident.note': 'Nota interna agregada',
  'incident.answer-accepted': 'Respuesta sin verificar aceptada como del cliente',
  'client.created': 'Cliente agregado',
  'client.welcome': 'Correo de bienvenida enviado',
  'client.edited': 'Cliente editado',
  'client.state': 'Cambio de estado del proyecto',
  'client.note': 'Nota en un cliente',
  'client.archived': 'Cliente archivado',
  'client.restored': 'Cliente restaurado',
  'client.meeting': 'Reunión enviada a un cliente',
  'client.meeting-cancelled': 'Reunión cancelada',
  'contact.handled': 'Mensaje de contacto atendido',
  'contact.pending': 'Mensaje de contacto marcado como pendiente',
  'client.imported': 'Clientes importados desde CSV',
  'incident.assigned': 'Incidencia asignada',
  'incident.priority': 'Cambio de prioridad de una incidencia',
  'incident.from-refused': 'Incidencia creada desde un correo rechazado',
  'inbound.discarded': 'Correo rechazado descartado',
  'sender.blocked': 'Remitente bloqueado',
  'sender.unblocked': 'Remitente desbloqueado',
  'saved-reply.created': 'Respuesta guardada creada',
  'saved-reply.edited': 'Respuesta guardada editada',
  'saved-reply.deleted': 'Respuesta guardada eliminada',
  'response-times.changed': 'Tiempos de respuesta cambiados',
  'article.created': 'Artículo creado',
  'article.edited': 'Artículo editado',
  'article.published': 'Artículo publicado',
  'article.scheduled': 'Artículo programado',
  'article.unpublished': 'Artículo despublicado',
  'article.restored': 'Versión anterior de un artículo restaurada',
  'article.preview-link': 'Enlace de vista previa creado',
  'announcement.created': 'Anuncio creado',
  'announcement.edited': 'Anuncio editado',
  'announcement.deleted': 'Anuncio eliminado',
  'logo.created': 'Logo de cliente agregado',
  'logo.edited': 'Logo de cliente editado',
  'logo.moved': 'Orden de los logos cambiado',
  'logo.deleted': 'Logo de cliente eliminado',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && Object.hasOwn(AUDIT_ACTIONS, value);
}

/** The Spanish label of an action code; an unknown code (from a newer version) is shown as is. */
export function auditActionLabel(action: string): string {
  return isAuditAction(action) ? AUDIT_ACTIONS[action] : action;
}
