/**
 * The desk's errors that its callers tell apart (an action maps each to its Spanish answer), in a file
 * of their own so that every file of the desk can throw them without importing another's work.
 */

/** No incident has the id (or number) a staff action names. */
export class IncidentNotFoundError extends Error {
  override name = 'IncidentNotFoundError';
}

/** Every number of a UTC day is taken: no incident can be opened until the day changes (UTC). */
export class IncidentNumbersExhaustedError extends Error {
  override name = 'IncidentNumbersExhaustedError';
  constructor(day: string) {
    super(
      `Se agotaron los números de incidencia del día ${day} (UTC): los 9.000 números INC-${day}-1000…9999 están en uso.`,
    );
  }
}
