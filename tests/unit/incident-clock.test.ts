/**
 * An incident's clock as a pure function (src/domain/incident-clock.ts): started, paused while waiting
 * for the customer, resumed, resolved (met or not), reopened, and a row stored without a clock.
 */
import { describe, expect, it } from 'vitest';
import {
  BLANK_CLOCK,
  clockFromExport,
  clockViews,
  nextClock,
  type ClockColumns,
  type ClockSubject,
} from '../../src/domain/incident-clock.ts';
import type { IncidentState } from '../../src/domain/incidents.ts';
import { DEFAULT_RESPONSE_TIMES } from '../../src/domain/response-times.ts';
import { calendarOf } from '../../src/server/incidents/clock-calendar.ts';

const calendar = calendarOf(DEFAULT_RESPONSE_TIMES);
const sd = (local: string) => new Date(`${local}-04:00`);
const iso = (local: string) => sd(local).toISOString();
const FECHA = iso('2026-03-09T08:00:00');

function step(
  clock: ClockColumns,
  estado: IncidentState,
  at: string,
  reply = false,
  prioridad: ClockSubject['prioridad'] = 'Urgente',
) {
  return nextClock(
    { ...clock, estado, prioridad, fecha: FECHA },
    { reply },
    sd(at),
    DEFAULT_RESPONSE_TIMES,
    calendar,
  );
}

describe('the incident clock', () => {
  it('starts at creation with both due times, the nearer as Vence', () => {
    const clock = step(BLANK_CLOCK, 'Registrado', '2026-03-09T08:00:00');
    expect(clock).toMatchObject({
      clockStarted: true,
      clockSince: FECHA,
      firstReplyDueAt: iso('2026-03-09T09:00:00'),
      resolutionDueAt: iso('2026-03-09T16:00:00'),
      dueAt: iso('2026-03-09T09:00:00'),
    });
  });

  it('pauses while waiting for the customer and keeps the due time when nothing else moved', () => {
    let clock = step(BLANK_CLOCK, 'Registrado', '2026-03-09T08:00:00');
    clock = step(clock, 'En Proceso', '2026-03-09T08:30:00');
    expect(clock.dueAt).toBe(iso('2026-03-09T09:00:00'));
    clock = step(clock, 'Esperando al cliente', '2026-03-09T08:45:00');
    expect(clock).toMatchObject({
      clockSince: null,
      dueAt: null,
      firstReplyUsedS: 45 * 60,
      resolutionUsedS: 45 * 60,
    });
    // Two days later the customer answers: 15 min of the first reply left.
    clock = step(clock, 'En Proceso', '2026-03-11T10:00:00');
    expect(clock.firstReplyDueAt).toBe(iso('2026-03-11T10:15:00'));
  });

  it('a staff reply ends the first-reply clock, met or not; resolving ends the resolution clock', () => {
    let clock = step(BLANK_CLOCK, 'Registrado', '2026-03-09T08:00:00');
    clock = step(clock, 'Registrado', '2026-03-09T08:40:00', true);
    expect(clock).toMatchObject({
      firstReplyAt: iso('2026-03-09T08:40:00'),
      firstReplyMet: true,
      firstReplyDueAt: null,
      dueAt: iso('2026-03-09T16:00:00'),
    });
    clock = step(clock, 'Resuelto', '2026-03-09T17:00:00');
    expect(clock).toMatchObject({
      resolutionMet: false,
      clockResolvedAt: iso('2026-03-09T17:00:00'),
      clockSince: null,
      dueAt: null,
      resolutionUsedS: 9 * 3600,
    });
    // Reopened Tuesday 8:00: it goes on from 9 h, 1 h past its 8 h, so it is due 1 working hour back
    // (Monday 17:00), and it is no longer counted as resolved.
    clock = step(clock, 'En Proceso', '2026-03-10T08:00:00');
    expect(clock).toMatchObject({
      resolutionMet: null,
      clockResolvedAt: null,
      resolutionDueAt: iso('2026-03-09T17:00:00'),
    });
  });

  it('resolving an incident nobody answered counts as its first reply', () => {
    const clock = step(
      step(BLANK_CLOCK, 'Registrado', '2026-03-09T08:00:00'),
      'Resuelto',
      '2026-03-09T08:30:00',
    );
    expect(clock).toMatchObject({
      firstReplyAt: iso('2026-03-09T08:30:00'),
      firstReplyMet: true,
      resolutionMet: true,
    });
  });

  it('a row stored without a clock starts at its creation when open, and counts nothing when resolved', () => {
    expect(step(BLANK_CLOCK, 'En Proceso', '2026-03-09T10:00:00')).toMatchObject({
      firstReplyUsedS: 2 * 3600,
      firstReplyDueAt: iso('2026-03-09T09:00:00'),
    });
    expect(step(BLANK_CLOCK, 'Resuelto', '2026-03-09T10:00:00')).toMatchObject({
      clockStarted: true,
      resolutionMet: null,
      firstReplyAt: null,
    });
  });

  it('shows both clocks, paused and overdue', () => {
    let clock = step(BLANK_CLOCK, 'Registrado', '2026-03-09T08:00:00');
    clock = step(clock, 'Esperando al cliente', '2026-03-09T10:00:00');
    const views = clockViews(
      { ...clock, estado: 'Esperando al cliente', prioridad: 'Urgente', fecha: FECHA },
      sd('2026-03-10T10:00:00'),
      DEFAULT_RESPONSE_TIMES,
      calendar,
    );
    expect(views.map((view) => [view.target, view.status, view.overdue, view.usedMs / 3_600_000])).toEqual([
      ['primera-respuesta', 'paused', true, 2],
      ['resolucion', 'paused', false, 2],
    ]);
  });

  it('reads an exported clock back, and nothing from a malformed one', () => {
    const clock = step(BLANK_CLOCK, 'Registrado', '2026-03-09T08:00:00');
    const exported = JSON.parse(
      JSON.stringify({
        ...clock,
        alerts: [
          { target: 'resolucion', dueAt: FECHA, createdAt: FECHA },
          { target: 'otra', dueAt: FECHA, createdAt: FECHA },
        ],
      }),
    );
    expect(clockFromExport(exported)).toEqual({
      ...clock,
      alerts: [{ target: 'resolucion', dueAt: FECHA, createdAt: FECHA }],
    });
    expect(clockFromExport({ ...exported, firstReplyUsedS: -1 })).toBeNull();
    expect(clockFromExport('reloj')).toBeNull();
  });
});
